#include "cli/report_html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "cli/prediction_report.hpp"

namespace mheta::cli {

namespace {

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
  return text;
}

// The plotting area of a chart in SVG units, and the y scale [0, y_max].
struct Frame {
  double width = 760, height = 380;
  double left = 80, right = 20, top = 20, bottom = 120;
  double y_max = 1;
  double plot_width() const { return width - left - right; }
  double plot_height() const { return height - top - bottom; }
  double y(double value) const { return top + plot_height() * (1 - value / y_max); }
};

// One unit for every tick of a time axis, chosen from its top, so that the
// ticks read 0 200 400 ... rather than a mix of µs and ms.
struct TimeUnit {
  double per_second;
  const char* name;
};

TimeUnit time_unit_for(double top_seconds) {
  if (top_seconds >= 1) return {1, "s"};
  if (top_seconds >= 1e-3) return {1e3, "ms"};
  return {1e6, "\u00b5s"};
}

std::string in_unit(double seconds, TimeUnit unit) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds * unit.per_second);
  return text;
}

// A round upper bound for an axis: 1, 2 or 5 times a power of ten.
double nice_ceiling(double value) {
  if (!(value > 0)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

// Opening tag, y axis with 5 ticks labelled by `label`, and the axis title.
template <typename Label>
void open_chart(std::ostringstream& svg, const Frame& f, const std::string& id, const std::string& y_title,
                Label label) {
  svg << "<svg id=\"" << id << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << f.width << "\" height=\""
      << f.height << "\" viewBox=\"0 0 " << f.width << ' ' << f.height << "\">\n";
  for (int k = 0; k <= 5; ++k) {
    const double value = f.y_max * k / 5;
    const double y = f.y(value);
    svg << "<line class=\"grid\" x1=\"" << f.left << "\" x2=\"" << num(f.width - f.right) << "\" y1=\"" << num(y)
        << "\" y2=\"" << num(y) << "\"/>"
        << "<text class=\"tick\" x=\"" << num(f.left - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
        << escape(label(value)) << "</text>\n";
  }
  svg << "<line class=\"axis\" x1=\"" << f.left << "\" x2=\"" << f.left << "\" y1=\"" << f.top << "\" y2=\""
      << num(f.top + f.plot_height()) << "\"/><line class=\"axis\" x1=\"" << f.left << "\" x2=\""
      << num(f.width - f.right) << "\" y1=\"" << num(f.top + f.plot_height()) << "\" y2=\""
      << num(f.top + f.plot_height()) << "\"/>\n"
      << "<text class=\"title\" transform=\"translate(16," << num(f.top + f.plot_height() / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">" << escape(y_title) << "</text>\n";
}

// A category label under the x axis, turned so long names fit.
void x_label(std::ostringstream& svg, const Frame& f, double x, const std::string& text) {
  const double y = f.top + f.plot_height() + 12;
  svg << "<text class=\"tick\" transform=\"translate(" << num(x) << ',' << num(y)
      << ") rotate(-40)\" text-anchor=\"end\">" << escape(text) << "</text>\n";
}

// Fig 10/11: predicted and actual seconds per iteration along the spectrum,
// then GBS; the measured best circled, the predicted best dashed when it differs.
std::string curve_chart(const ValidationResults& r, const ValidationSummary& s) {
  const auto& e = r.entries;
  Frame f;
  double top = 0;
  for (const ValidationEntry& x : e) top = std::max({top, x.predicted_s, x.actual_max_s()});
  f.y_max = nice_ceiling(top * 1.05);
  const TimeUnit unit = time_unit_for(f.y_max);
  std::ostringstream svg;
  open_chart(svg, f, "curve", std::string("time per iteration (") + unit.name + ")",
             [unit](double v) { return in_unit(v, unit); });
  const double step = e.size() > 1 ? f.plot_width() / static_cast<double>(e.size()) : f.plot_width();
  const auto x_of = [&](std::size_t i) { return f.left + step * (static_cast<double>(i) + 0.5); };
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i].kind == "searched") {
      const double x = x_of(i) - step / 2;
      svg << "<line class=\"divider\" x1=\"" << num(x) << "\" x2=\"" << num(x) << "\" y1=\"" << f.top << "\" y2=\""
          << num(f.top + f.plot_height()) << "\"/>\n";
    }
    x_label(svg, f, x_of(i), e[i].name);
  }
  // One path per series; a distribution not measured yet breaks the actual line.
  const auto series = [&](const char* cls, bool actual) {
    std::string d;
    bool pen_down = false;
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (actual && !e[i].measured()) {
        pen_down = false;
        continue;
      }
      const double v = actual ? e[i].actual_s() : e[i].predicted_s;
      d += (pen_down ? " L " : " M ") + num(x_of(i)) + ' ' + num(f.y(v));
      pen_down = true;
    }
    svg << "<path class=\"" << cls << "\" d=\"" << d << "\"/>\n";
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (actual && !e[i].measured()) continue;
      const double v = actual ? e[i].actual_s() : e[i].predicted_s;
      svg << "<circle class=\"" << cls << "\" cx=\"" << num(x_of(i)) << "\" cy=\"" << num(f.y(v))
          << "\" r=\"3.5\"><title>" << escape(e[i].name) << (actual ? " actual " : " predicted ")
          << escape(human_seconds(v)) << "</title></circle>\n";
    }
  };
  // The spread of the repeated runs: a bar from the fastest to the slowest.
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i].runs.size() < 2) continue;
    const double x = x_of(i), lo = f.y(e[i].actual_min_s()), hi = f.y(e[i].actual_max_s());
    svg << "<path class=\"spread\" d=\"M " << num(x) << ' ' << num(lo) << " L " << num(x) << ' ' << num(hi) << " M "
        << num(x - 4) << ' ' << num(lo) << " L " << num(x + 4) << ' ' << num(lo) << " M " << num(x - 4) << ' '
        << num(hi) << " L " << num(x + 4) << ' ' << num(hi) << "\"><title>" << escape(e[i].name) << " runs "
        << escape(human_seconds(e[i].actual_min_s())) << " to " << escape(human_seconds(e[i].actual_max_s()))
        << "</title></path>\n";
  }
  series("predicted", false);
  series("actual", true);
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (s.measured == 0) break;
    if (e[i].name == s.measured_best) {
      svg << "<circle class=\"best\" cx=\"" << num(x_of(i)) << "\" cy=\"" << num(f.y(e[i].actual_s()))
          << "\" r=\"10\"/>\n";
    }
    if (e[i].name == s.predicted_best && !s.predicted_best_is_measured_best) {
      svg << "<circle class=\"best dashed\" cx=\"" << num(x_of(i)) << "\" cy=\"" << num(f.y(e[i].predicted_s))
          << "\" r=\"10\"/>\n";
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

struct Component {
  const char* label;
  const char* cls;
  double model::IterationTerms::*seconds;
};
constexpr Component kComponents[] = {{"compute", "compute", &model::IterationTerms::compute_s},
                                     {"I/O", "io", &model::IterationTerms::io_s},
                                     {"communication", "comm", &model::IterationTerms::comm_s},
                                     {"waiting", "wait", &model::IterationTerms::wait_s}};

double stacked_seconds(const model::IterationTerms& t) {
  double sum = 0;
  for (const Component& c : kComponents) sum += std::max(0.0, t.*c.seconds);
  return sum;
}

// One stacked bar of a rank's terms; `measured` bars are drawn lighter.
void stacked_bar(std::ostringstream& svg, const Frame& f, double x, double width, const model::IterationTerms& t,
                 std::size_t rank, bool measured) {
  double base = 0;
  for (const Component& c : kComponents) {
    const double v = std::max(0.0, t.*c.seconds);
    svg << "<rect class=\"" << c.cls << (measured ? " measured" : "") << "\" x=\"" << num(x) << "\" y=\""
        << num(f.y(base + v)) << "\" width=\"" << num(width) << "\" height=\"" << num(f.y(base) - f.y(base + v))
        << "\"><title>rank " << rank << (measured ? " measured " : " predicted ") << c.label << ' '
        << escape(human_seconds(v)) << "</title></rect>\n";
    base += v;
  }
  svg << "<text class=\"tick\" x=\"" << num(x + width / 2) << "\" y=\"" << num(f.top + f.plot_height() + 12)
      << "\" text-anchor=\"middle\">" << (measured ? 'M' : 'P') << "</text>\n";
}

// Per rank, the model's terms (P) beside the measured ones (M, from the
// interposer's records, when the runs were accounted), stacked.
std::string breakdown_chart(const ValidationEntry& entry) {
  const std::vector<model::IterationTerms> predicted = entry.predicted_ranks();
  const std::vector<model::IterationTerms> measured = entry.measured_ranks();
  const std::size_t ranks = std::max(predicted.size(), measured.size());
  Frame f;
  f.bottom = 60;
  double top = 0;
  for (const model::IterationTerms& t : predicted) top = std::max(top, stacked_seconds(t));
  for (const model::IterationTerms& t : measured) top = std::max(top, stacked_seconds(t));
  f.y_max = nice_ceiling(top * 1.05);
  const TimeUnit unit = time_unit_for(f.y_max);
  std::ostringstream svg;
  open_chart(svg, f, "breakdown", std::string("time per iteration (") + unit.name + ")",
             [unit](double v) { return in_unit(v, unit); });
  const double step = ranks == 0 ? f.plot_width() : f.plot_width() / static_cast<double>(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    const double x = f.left + step * (static_cast<double>(r) + 0.15);
    const double width = step * 0.33;
    if (r < predicted.size()) stacked_bar(svg, f, x, width, predicted[r], r, false);
    if (r < measured.size()) stacked_bar(svg, f, x + width + step * 0.04, width, measured[r], r, true);
    svg << "<text class=\"tick\" x=\"" << num(x + step * 0.35) << "\" y=\"" << num(f.top + f.plot_height() + 28)
        << "\" text-anchor=\"middle\">rank " << r << "</text>\n";
  }
  double legend_x = f.left;
  for (const Component& c : kComponents) {
    svg << "<rect class=\"" << c.cls << "\" x=\"" << num(legend_x) << "\" y=\"" << num(f.height - 22)
        << "\" width=\"12\" height=\"12\"/><text class=\"tick\" x=\"" << num(legend_x + 16) << "\" y=\""
        << num(f.height - 12) << "\">" << c.label << "</text>\n";
    legend_x += 130;
  }
  svg << "</svg>\n";
  return svg.str();
}

// The same numbers as a table: per rank and term, predicted / measured.
std::string breakdown_table(const ValidationEntry& entry) {
  const std::vector<model::IterationTerms> predicted = entry.predicted_ranks();
  const std::vector<model::IterationTerms> measured = entry.measured_ranks();
  std::ostringstream html;
  html << "<table id=\"terms\"><tr><th>rank: predicted / measured</th>";
  for (const Component& c : kComponents) html << "<th>" << c.label << "</th>";
  html << "<th>total</th></tr>\n";
  const auto cell = [](double p, const model::IterationTerms* m, double model::IterationTerms::*seconds) {
    return escape(human_seconds(p)) + " / " + (m != nullptr ? escape(human_seconds(m->*seconds)) : "&ndash;");
  };
  for (std::size_t r = 0; r < predicted.size(); ++r) {
    const model::IterationTerms* m = r < measured.size() ? &measured[r] : nullptr;
    html << "<tr><td>" << r << "</td>";
    for (const Component& c : kComponents) html << "<td>" << cell(predicted[r].*c.seconds, m, c.seconds) << "</td>";
    html << "<td>" << cell(predicted[r].total_s, m, &model::IterationTerms::total_s) << "</td></tr>\n";
  }
  html << "</table>\n";
  return html.str();
}

// Fig 9 for one configuration: the error of every measured distribution,
// with the mean and the maximum marked.
std::string error_chart(const ValidationResults& r, const ValidationSummary& s) {
  Frame f;
  std::vector<const ValidationEntry*> measured;
  for (const ValidationEntry& e : r.entries) {
    if (e.measured()) measured.push_back(&e);
  }
  f.y_max = nice_ceiling(std::max(0.01, s.error_max) * 1.05);
  std::ostringstream svg;
  open_chart(svg, f, "errors", "|p - a| / min(p, a)", [](double v) { return percent(v); });
  const double step = measured.empty() ? f.plot_width() : f.plot_width() / static_cast<double>(measured.size());
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const double error = prediction_error(measured[i]->predicted_s, measured[i]->actual_s());
    const double x = f.left + step * (static_cast<double>(i) + 0.2);
    const double y = f.y(std::min(error, f.y_max));
    svg << "<rect class=\"error\" x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(step * 0.6)
        << "\" height=\"" << num(f.top + f.plot_height() - y) << "\"><title>" << escape(measured[i]->name) << ' '
        << percent(error) << "</title></rect>\n";
    x_label(svg, f, x + step * 0.3, measured[i]->name);
  }
  std::vector<std::pair<double, const char*>> marks;
  if (s.measured > 0) marks = {{s.error_mean, "mean"}, {s.error_max, "max"}};
  if (s.noise_floor) marks.emplace_back(*s.noise_floor, "noise floor");
  for (const auto& [value, label] : marks) {
    // The noise floor is labelled on the left, so it never covers the mean's label.
    const bool noise = std::string_view(label) == "noise floor";
    svg << "<line class=\"mark" << (noise ? " noise" : "") << "\" x1=\"" << f.left << "\" x2=\""
        << num(f.width - f.right) << "\" y1=\"" << num(f.y(value)) << "\" y2=\"" << num(f.y(value))
        << "\"/><text class=\"tick\" x=\"" << num(noise ? f.left + 4 : f.width - f.right - 4) << "\" y=\""
        << num(f.y(value) - 4) << "\" text-anchor=\"" << (noise ? "start" : "end") << "\">" << label << ' '
        << percent(value) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:2em;color:#222;max-width:60em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}
td:first-child,th:first-child{text-align:left}
svg text{font-size:11px;fill:#333}svg .title{font-size:12px}
.grid{stroke:#eee}.axis{stroke:#555}.divider{stroke:#999;stroke-dasharray:4 3}
path.predicted{fill:none;stroke:#4e79a7;stroke-width:2;stroke-dasharray:6 3}path.actual{fill:none;stroke:#e15759;stroke-width:2}
path.spread{fill:none;stroke:#e15759;stroke-width:1.2}
circle.predicted{fill:#4e79a7}circle.actual{fill:#e15759}
circle.best{fill:none;stroke:#222;stroke-width:1.5}circle.dashed{stroke-dasharray:3 3}
.compute{fill:#4e79a7}.io{fill:#f28e2b}.comm{fill:#59a14f}.wait{fill:#bab0ac}.error{fill:#76b7b2}
rect.measured{fill-opacity:0.55;stroke:#333;stroke-width:0.6}
.mark{stroke:#e15759;stroke-dasharray:5 3}.mark.noise{stroke:#79706e;stroke-dasharray:2 3}.key svg{vertical-align:middle;margin:0 4px 0 12px}
)";

}  // namespace

std::string render_report_html(const ValidationResults& r, const std::string& chosen, const std::string& title) {
  const ValidationEntry* pick = nullptr;
  for (const ValidationEntry& e : r.entries) {
    if (chosen.empty() ? e.kind == "searched" : e.name == chosen) pick = &e;
  }
  if (pick == nullptr && chosen.empty() && !r.entries.empty()) pick = &r.entries.front();
  if (pick == nullptr) {
    std::string names;
    for (const ValidationEntry& e : r.entries) names += (names.empty() ? "" : ", ") + e.name;
    throw std::invalid_argument("no distribution named \"" + chosen + "\" (there are: " + names + ")");
  }
  const ValidationSummary s = summarize(r);
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << escape(title)
       << "</title><style>" << kStyle << "</style></head><body>\n<h1>" << escape(title) << "</h1>\n<p>"
       << escape(r.settings.value("app", std::string())) << " on " << r.settings.value("ranks", 0) << " ranks";
  const std::string emulate = r.settings.value("emulate", std::string());
  if (!emulate.empty()) html << ", emulated " << escape(emulate);
  if (r.settings.value("prefetch", false)) html << ", prefetch";
  html << ". Time per iteration: a run's actual time is the slowest rank's median iteration after the first (the "
          "first creates or opens the data and is excluded); a distribution's is the median of its runs, and the "
          "bar around it spans its fastest and slowest run; predicted is the MHETA model's time of one iteration, "
          "from one iteration captured under Blk.</p>\n";

  // The legend draws each series with its own line style.
  const auto key = [](const char* cls) {
    return std::string("<svg id=\"key-") + cls + "\" width=\"28\" height=\"10\"><path class=\"" + cls +
           "\" d=\"M 0 5 L 28 5\"/></svg>";
  };
  html << "<h2>Predicted and actual time over the distributions</h2>\n<p class=\"key\">" << key("predicted")
       << "predicted" << key("actual") << "actual" << key("spread")
       << "spread of the runs; the measured best is circled, the predicted best circled dashed when it differs; GBS "
          "(the searched distribution) after the dashed line.</p>\n"
       << curve_chart(r, s);

  html << "<h2>Accuracy</h2>\n";
  if (s.measured > 0) {
    html << "<table><tr><th>error (|p &minus; a| / min(p, a))</th><th>min</th><th>mean</th><th>max</th></tr><tr><td>"
         << s.measured << " of " << s.distributions << " distributions measured</td><td>" << percent(s.error_min)
         << "</td><td>" << percent(s.error_mean) << "</td><td>" << percent(s.error_max) << "</td></tr></table>\n<p>"
         << "Predicted best: " << escape(s.predicted_best) << "; measured best: " << escape(s.measured_best) << " ("
         << (s.predicted_best_is_measured_best
                 ? "the same"
                 : "different; the predicted best ran " + percent(s.predicted_best_excess) + " slower")
         << ").";
    if (s.noise_floor) {
      html << " Noise floor (the median spread of a distribution's repeated runs): " << percent(*s.noise_floor)
           << ", largest spread " << percent(*s.noise_max) << "; " << s.errors_beyond_noise << " of " << s.measured
           << " errors exceed their distribution's spread.";
    }
    if (s.machine_share) {
      html << " The machine: ranks waited for a core up to " << percent(*s.machine_share)
           << " of an iteration (held by other processes, or by more ranks than cores).";
    }
    if (s.chosen_speedup_over_blk) {
      char speedup[32];
      std::snprintf(speedup, sizeof speedup, "%.2f", *s.chosen_speedup_over_blk);
      html << " The predicted best ran " << speedup << "&times; as fast as Blk"
           << (*s.chosen_speedup_over_blk < 1 ? " (slower: the model is wrong here)" : "") << ".";
    }
    if (s.worst_term) {
      html << " Most of the error (" << escape(s.worst_distribution) << ", the largest error): "
           << escape(s.worst_term->term) << " on rank " << s.worst_term->rank << ", predicted "
           << escape(human_seconds(s.worst_term->predicted_s)) << ", measured "
           << escape(human_seconds(s.worst_term->measured_s)) << ".";
    }
    if (s.spectrum_best_over_searched) {
      html << " Best of the spectrum (" << escape(s.spectrum_best)
           << ") against GBS: " << (*s.spectrum_best_over_searched >= 0 ? "+" : "")
           << percent(*s.spectrum_best_over_searched) << ".";
    }
    html << "</p>\n";
  } else {
    html << "<p>No distribution measured yet.</p>\n";
  }
  html << error_chart(r, s);

  html << "<h2>Predicted and measured per rank: " << escape(pick->name) << "</h2>\n<p>Rows "
       << escape(model::Json(pick->rows).dump()) << "; predicted " << escape(human_seconds(pick->predicted_s));
  if (pick->measured()) html << ", actual " << escape(human_seconds(pick->actual_s()));
  html << ". P: the model's terms; M: the measured ones (each term's median over the iterations after the first, "
          "then over the runs, from the interposer's records; a receive's transfer and a collective's cost are "
          "waiting there, communication in the model).";
  if (const auto largest = pick->largest_term_error()) {
    html << " Largest difference: " << escape(largest->term) << " on rank " << largest->rank << ", predicted "
         << escape(human_seconds(largest->predicted_s)) << ", measured " << escape(human_seconds(largest->measured_s))
         << ".";
  }
  html << "</p>\n" << breakdown_chart(*pick) << breakdown_table(*pick);

  html << "<h2>Every distribution</h2>\n<table><tr><th>distribution</th><th>rows</th><th>predicted</th>"
          "<th>actual</th><th>runs</th><th>spread</th><th>error</th><th>check</th></tr>\n";
  for (const ValidationEntry& e : r.entries) {
    const bool m = e.measured();
    html << "<tr><td>" << escape(e.name) << "</td><td>" << escape(model::Json(e.rows).dump()) << "</td><td>"
         << escape(human_seconds(e.predicted_s)) << "</td><td>" << (m ? escape(human_seconds(e.actual_s())) : "")
         << "</td><td>" << e.runs.size() << "</td><td>" << (e.runs.size() >= 2 ? percent(e.relative_spread()) : "")
         << "</td><td>" << (m ? percent(prediction_error(e.predicted_s, e.actual_s())) : "") << "</td><td>"
         << escape(e.check()) << "</td></tr>\n";
  }
  html << "</table>\n</body></html>\n";
  return html.str();
}

}  // namespace mheta::cli
