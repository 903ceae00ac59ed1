// is_retryable: quais falhas do provedor valem uma nova tentativa (as regras
// dos SDKs oficiais da OpenAI).
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/printing.hpp"
#include "retry.hpp"

using Kind = hz::ModelError::Kind;

namespace {

hz::ModelError failure(Kind kind, int status = 0) {
  hz::ModelError error;
  error.kind = kind;
  error.http_status = status;
  error.message = "falhou";
  return error;
}

}  // namespace

TEST_SUITE_BEGIN("02-brakes/retryable");

TEST_CASE("conexão, tempo esgotado, silêncio e corpo ilegível valem nova tentativa") {
  for (Kind kind : {Kind::connection, Kind::timeout, Kind::idle, Kind::malformed}) {
    CAPTURE(kind);
    CHECK(hz::is_retryable(failure(kind, kind == Kind::malformed ? 200 : 0)));
  }
}

TEST_CASE("HTTP 408, 409, 429 e 5xx valem nova tentativa") {
  for (int status : {408, 409, 429, 500, 502, 503, 504, 529, 599}) {
    CAPTURE(status);
    CHECK(hz::is_retryable(failure(Kind::http, status)));
  }
}

TEST_CASE("HTTP 400, 401, 403, 404, 422 e outros 4xx não valem: falhariam igual") {
  for (int status : {400, 401, 403, 404, 413, 418, 422}) {
    CAPTURE(status);
    CHECK_FALSE(hz::is_retryable(failure(Kind::http, status)));
  }
}

TEST_CASE("resposta grande demais e chamada cancelada não valem nova tentativa") {
  CHECK_FALSE(hz::is_retryable(failure(Kind::too_large, 200)));
  CHECK_FALSE(hz::is_retryable(failure(Kind::aborted)));
  // Nem quando a chamada cancelada já tinha recebido 200.
  CHECK_FALSE(hz::is_retryable(failure(Kind::aborted, 200)));
}

TEST_SUITE_END();
