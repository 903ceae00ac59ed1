// Um pedaço de teste num processo filho: o que ele muda no processo (um
// limite de tamanho de arquivo, um filtro seccomp) não vaza para o resto da
// suíte, e um kill ou um _exit dele não derruba o doctest.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <exception>
#include <functional>
#include <string>
#include <string_view>

namespace hz::testing {

// O código com que o filho de fork_child sai quando body lança.
inline constexpr int kChildThrew = 99;

// Roda body num processo filho e devolve o pid. O filho nunca volta para o
// doctest: sai com 0, ou com kChildThrew se body lançar (um stub de exercício,
// por exemplo), depois de escrever no stderr o que foi lançado.
template <class Body>
pid_t fork_child(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 0;
    try {
      body();
    } catch (const std::exception& e) {
      // write, e não o stdio: depois de um fork, um lock do stderr pode ter
      // ficado com uma thread que não veio junto.
      const std::string_view said[] = {"o processo filho do teste lançou: ", e.what(), "\n"};
      for (const std::string_view part : said) {
        if (::write(STDERR_FILENO, part.data(), part.size()) < 0) break;
      }
      code = kChildThrew;
    } catch (...) {
      code = kChildThrew;
    }
    _exit(code);
  }
  return pid;
}

// Escreve text e um \n no pipe (o filho conta ao pai o que viu).
void tell(int fd, const std::string& text);

// Lê o pipe até o fim (até o filho fechar a ponta dele).
std::string read_until_closed(int fd);

// Roda body(fd) num filho e devolve o que ele contou por fd (uma linha por
// tell). Confere (CHECK) que o filho terminou com código 0.
std::string told_by_child(const std::function<void(int fd)>& body);

// No processo que chamar (um filho: não tem volta), todo fdatasync passa a
// falhar com EIO, como num disco que devolve erro de E/S. Um filtro seccomp
// do próprio kernel, sem gancho no código testado. false se o kernel não
// deixou (ou fora do Linux).
bool fail_every_fdatasync();

}  // namespace hz::testing
