// O relógio do loop: que horas são e como esperar.
//
// O prazo do turno e o backoff entre tentativas leem a hora e dormem por aqui,
// nunca direto em std::chrono. Nos testes, um relógio falso avança na hora em
// que "dorme" e anota quanto dormiu: um teste de backoff confere os atrasos
// exatos sem esperar nada.
#pragma once

#include <atomic>
#include <chrono>

namespace hz {

// listing: clock
class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;
  // Monotônico: não volta quando alguém acerta o relógio do sistema.
  virtual time_point now() const = 0;
  virtual void sleep_for(std::chrono::milliseconds delay) = 0;
};

// O relógio de verdade (std::chrono::steady_clock). Com `wake`, a espera
// acaba cedo, em até 50 ms, quando *wake fica verdadeiro: um Ctrl-C não espera
// o fim de um backoff de 8 s. Pré-condição: *wake vive mais que o relógio.
class SystemClock final : public Clock {
 public:
  explicit SystemClock(const std::atomic<bool>* wake = nullptr) : wake_(wake) {}
  time_point now() const override;
  void sleep_for(std::chrono::milliseconds delay) override;

 private:
  const std::atomic<bool>* wake_;
};
// end-listing: clock

// Um SystemClock sem `wake`, para quem não passa relógio (LoopConfig::clock nulo).
Clock& system_clock();

}  // namespace hz
