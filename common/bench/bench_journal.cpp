// A seção do journal (etapa 04) do hz-bench: quanto custa um passo durável e
// quanto demora a retomada. Meça no disco de verdade (--journal-dir), não num
// tmpfs, onde fdatasync não custa nada.
//
// 1. O passo durável: Journal::append (registro montado, crc, um write, um
//    fdatasync) ao lado do custo puro do disco: um write da mesma linha e
//    fdatasync feitos à mão, e um write sem fdatasync.
// 2. A retomada: read_journal + rebuild_state num journal de 10.000 registros
//    (e de 20.000, para ver se cresce em linha reta). A meta é menos de 200 ms.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_journal.hpp"
#include "journal.hpp"
#include "records.hpp"
#include "resume.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Um resultado de ferramenta de tamanho típico (uns 300 bytes na linha).
json typical_result(int i) {
  return hz::result_record("call_" + std::to_string(i),
                           hz::ToolOutput::success("código de saída: 0\n" + std::string(200, 'x')));
}

void bench_durable_step(const fs::path& dir, int steps) {
  const fs::path path = dir / "hz-bench-journal.jsonl";
  fs::remove(path);
  std::vector<double> append_us;
  {
    auto journal = hz::Journal::create(path);
    if (!journal.ok()) {
      std::fprintf(stderr, "%s\n", journal.error().message.c_str());
      return;
    }
    for (int i = 0; i < steps; ++i) {
      const auto start = Clock::now();
      if (!journal->append(typical_result(i)).ok()) return;
      append_us.push_back(micros_since(start));
    }
  }
  json rec = typical_result(0);
  rec["seq"] = 1;
  const std::string line = hz::encode_line(rec);
  std::vector<double> sync_us;
  std::vector<double> write_us;
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  for (int i = 0; i < steps; ++i) {
    auto start = Clock::now();
    if (write(fd, line.data(), line.size()) < 0 || fdatasync(fd) != 0) break;
    sync_us.push_back(micros_since(start));
    start = Clock::now();
    if (write(fd, line.data(), line.size()) < 0) break;
    write_us.push_back(micros_since(start));
  }
  ::close(fd);
  fs::remove(path);
  std::printf("passo durável (%d registros de %zu bytes, mediana):\n", steps, line.size());
  std::printf("  Journal::append (crc + write + fdatasync) %9.1f µs\n", median(append_us));
  std::printf("  write + fdatasync à mão                   %9.1f µs\n", median(sync_us));
  std::printf("  write sem fdatasync                       %9.1f µs\n", median(write_us));
}

// Um journal de n registros: turnos de usuário, resposta com uma chamada,
// intenção, resultado, resposta final, fim de turno.
void write_journal(const fs::path& path, int n) {
  fs::remove(path);
  std::string bytes;
  std::vector<json> recs{
      hz::start_record({{"model", "m"}, {"system_prompt", "Você é um agente."}})};
  int i = 0;
  while (static_cast<int>(recs.size()) < n) {
    const hz::ToolCall call{"call_" + std::to_string(i), "read_file", R"({"path":"a.txt"})"};
    recs.push_back(hz::user_record("pedido " + std::to_string(i)));
    recs.push_back(hz::reply_record(hz::Message::assistant("", {call}), {}, 100));
    recs.push_back(hz::intent_record({call, hz::Idempotency::yes, {}, {}}));
    recs.push_back(typical_result(i));
    recs.back()["call_id"] = call.id;
    recs.push_back(hz::reply_record(hz::Message::assistant("feito"), {}, 100));
    recs.push_back(hz::turn_end_record("success", 2, 200));
    ++i;
  }
  recs.resize(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < recs.size(); ++k) {
    recs[k]["seq"] = static_cast<std::int64_t>(k) + 1;
    bytes += hz::encode_line(recs[k]);
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), file);
  std::fclose(file);
}

// A mediana da retomada (read_journal + rebuild_state), em ms; negativa se falhou.
double bench_resume(const fs::path& dir, int n) {
  const fs::path path = dir / "hz-bench-resume.jsonl";
  write_journal(path, n);
  std::vector<double> read_ms;
  std::vector<double> rebuild_ms;
  std::size_t messages = 0;
  for (int round = 0; round < 5; ++round) {
    auto start = Clock::now();
    auto read = hz::read_journal(path);
    read_ms.push_back(micros_since(start) / 1000);
    if (!read.ok()) {
      std::fprintf(stderr, "%s\n", read.error().message.c_str());
      return -1;
    }
    start = Clock::now();
    auto state = hz::rebuild_state(read->records);
    rebuild_ms.push_back(micros_since(start) / 1000);
    if (!state.ok()) {
      std::fprintf(stderr, "%s\n", state.error().message.c_str());
      return -1;
    }
    messages = state->history.size();
  }
  std::printf(
      "retomada de %d registros (%ju bytes, %zu mensagens, mediana de 5): "
      "read_journal %.1f ms + rebuild_state %.1f ms\n",
      n, static_cast<std::uintmax_t>(fs::file_size(path)), messages, median(read_ms),
      median(rebuild_ms));
  fs::remove(path);
  return median(read_ms) + median(rebuild_ms);
}

}  // namespace

bool run_journal_bench(const fs::path& dir, int steps) {
  std::printf("journal (etapa 04) em %s\n", dir.string().c_str());
  bench_durable_step(dir, steps);
  const double ten = bench_resume(dir, 10000);
  const double twenty = bench_resume(dir, 20000);
  if (ten < 0 || twenty < 0) return false;
  const bool fast = ten < kResumeTargetMs;
  std::printf("  meta: retomada de 10.000 registros < %.0f ms -> %.1f ms, %s\n", kResumeTargetMs,
              ten, fast ? "PASSOU" : "FALHOU");
  std::printf("  20.000 registros / 10.000: %.2fx (linear: perto de 2x)\n", twenty / ten);
  return fast;
}
