#pragma once
// The validation report: one self-contained HTML page (inline SVG and CSS,
// nothing loaded from anywhere) with the charts of MHETA §5.2: predicted
// against actual time over the spectrum of distributions (Fig 10/11), the
// model's per-rank breakdown of one distribution, and the accuracy summary
// (Fig 9).
#include <string>

#include "cli/validation_results.hpp"

namespace mheta::cli {

// `chosen` names the distribution whose per-rank breakdown is drawn; empty:
// the searched one (GBS), else the first. Throws std::invalid_argument when
// `chosen` names none of them.
std::string render_report_html(const ValidationResults& results, const std::string& chosen, const std::string& title);

}  // namespace mheta::cli
