#include "hz/course/regions.hpp"

#include <algorithm>

#include "hz/course/lines.hpp"
#include "hz/course/markers.hpp"

namespace hz::course {
namespace {

std::string at(std::string_view path, std::size_t index, const std::string& message) {
  return std::string(path) + ":" + std::to_string(index + 1) + ": " + message;
}

}  // namespace

RegionScan scan_regions(std::string_view text, std::string_view shown_path, Side side) {
  RegionScan scan;
  scan.lines = split_keep_eol(text);
  const MarkerKind opening = side == Side::solution ? MarkerKind::exercise : MarkerKind::todo;
  const MarkerKind other = side == Side::solution ? MarkerKind::todo : MarkerKind::exercise;

  bool inside = false;
  bool in_own = false;
  Region current;
  for (std::size_t i = 0; i < scan.lines.size(); ++i) {
    const std::string_view content = body(scan.lines[i]);
    const Marker m = classify_line(content);
    if (m.kind == MarkerKind::unknown) {
      scan.error = at(shown_path, i, m.problem);
      return scan;
    }
    if (m.kind == other) {
      scan.error = at(shown_path, i,
                      side == Side::solution
                          ? "// TODO EXERCICIO é a grafia de exercises/; na solução, use "
                            "// EXERCICIO <etapa>/<id>: <instrução>"
                          : "// EXERCICIO é a grafia de solutions/; num exercício, a região "
                            "abre com // TODO EXERCICIO");
      return scan;
    }
    if (m.kind == MarkerKind::own) {
      if (inside || in_own || scan.own) {
        scan.error = at(shown_path, i,
                        inside ? "a área // SEU-CODIGO fica fora das regiões de exercício"
                               : "uma segunda área // SEU-CODIGO (só há uma por arquivo)");
        return scan;
      }
      in_own = true;
      scan.own = OwnArea{i, 0};
      continue;
    }
    if (m.kind == MarkerKind::end_own) {
      if (!in_own) {
        scan.error = at(shown_path, i, "FIM-SEU-CODIGO sem o // SEU-CODIGO antes");
        return scan;
      }
      in_own = false;
      scan.own->close = i;
      continue;
    }
    if (in_own && (m.kind == opening || m.kind == MarkerKind::end_exercise)) {
      scan.error = at(shown_path, i,
                      "marcador de exercício dentro da área // SEU-CODIGO (aberta na linha " +
                          std::to_string(scan.own->open + 1) + "); feche com // FIM-SEU-CODIGO");
      return scan;
    }
    if (m.kind == opening) {
      if (inside) {
        scan.error = at(shown_path, i,
                        "região de exercício dentro de outra (aberta na linha " +
                            std::to_string(current.open + 1) + "); feche com // FIM-EXERCICIO");
        return scan;
      }
      inside = true;
      current =
          Region{m.stage + "/" + m.id, m.stage, m.text, std::string(leading_ws(content)), i, 0};
    } else if (m.kind == MarkerKind::end_exercise) {
      if (!inside) {
        scan.error = at(shown_path, i, "FIM-EXERCICIO sem a abertura da região antes");
        return scan;
      }
      inside = false;
      current.close = i;
      scan.regions.push_back(current);
    }
  }
  if (inside) scan.error = at(shown_path, current.open, "região de exercício sem // FIM-EXERCICIO");
  if (in_own)
    scan.error = at(shown_path, scan.own->open, "área // SEU-CODIGO sem // FIM-SEU-CODIGO");
  return scan;
}

std::string region_text(const RegionScan& scan, const Region& region) {
  std::string out;
  for (std::size_t i = region.open; i <= region.close; ++i) out += scan.lines[i];
  return out;
}

std::string region_body(const RegionScan& scan, const Region& region) {
  std::string out;
  for (std::size_t i = region.open + 1; i < region.close; ++i) out += scan.lines[i];
  return out;
}

}  // namespace hz::course

namespace hz::course {

std::string own_body(const RegionScan& scan) {
  std::string out;
  if (!scan.own) return out;
  for (std::size_t i = scan.own->open + 1; i < scan.own->close; ++i) out += scan.lines[i];
  return out;
}

bool has_code(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") != std::string_view::npos;
}

std::string with_own_body(const RegionScan& scan, std::string_view body) {
  std::string out;
  for (std::size_t i = 0; i < scan.lines.size(); ++i) {
    if (scan.own && i > scan.own->open && i < scan.own->close) continue;
    if (scan.own && i == scan.own->close) out += body;
    out += scan.lines[i];
  }
  return out;
}

namespace {

// As linhas de fora das regiões e da área, com o índice de cada uma; cada
// região ou área vira uma entrada com a marca \x01 (o lugar dela conta).
std::vector<std::pair<std::size_t, std::string>> outside_lines(const RegionScan& scan) {
  std::vector<std::pair<std::size_t, std::string>> out;
  std::size_t i = 0;
  std::size_t r = 0;
  while (i < scan.lines.size()) {
    if (r < scan.regions.size() && i == scan.regions[r].open) {
      out.push_back({i, "\x01\n"});
      i = scan.regions[r++].close + 1;
    } else if (scan.own && i == scan.own->open) {
      out.push_back({i, "\x01\n"});
      i = scan.own->close + 1;
    } else {
      out.push_back({i, scan.lines[i]});
      ++i;
    }
  }
  return out;
}

}  // namespace

std::string outside_regions(const RegionScan& scan) {
  std::string out;
  for (const auto& line : outside_lines(scan)) out += line.second;
  return out;
}

std::size_t first_outside_difference(const RegionScan& text, const RegionScan& other) {
  const auto mine = outside_lines(text);
  const auto theirs = outside_lines(other);
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (i >= theirs.size() || mine[i].second != theirs[i].second) return mine[i].first + 1;
  }
  if (mine.size() == theirs.size()) return 0;
  return std::max<std::size_t>(1, text.lines.size());
}

}  // namespace hz::course
