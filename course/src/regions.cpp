#include "hz/course/regions.hpp"

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
