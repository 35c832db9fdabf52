// mheta report results.json [-o report.html] [--distribution NAME] [--title T]
//
// Turns the results of `mheta validate` into one self-contained HTML page
// (cli/report_html.hpp).
#include <iostream>
#include <memory>
#include <stdexcept>

#include "cli/command.hpp"
#include <mheta/exit_codes.hpp>
#include "cli/report_html.hpp"
#include "cli/validation_results.hpp"
#include "model/output_file.hpp"
#include "model/text_file.hpp"

namespace mheta::cli {

namespace {

struct ReportOptions {
  std::string results;
  std::string output = "report.html";
  std::string distribution;
  std::string title = "mheta validation";
};

int run_report(const ReportOptions& o) {
  const ValidationResults results = read_validation_results(o.results);
  std::string html;
  try {
    html = render_report_html(results, o.distribution, o.title);
  } catch (const std::invalid_argument& error) {
    std::cerr << "mheta report: --distribution: " << error.what() << "\n";
    return kExitUsage;
  }
  model::write_output(o.output, html);
  if (o.output != "-") std::cerr << "mheta report: wrote " << o.output << "\n";
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand("report", "Write an HTML report of mheta validate's results");
  cmd->add_option("results", o->results, "results.json written by mheta validate")->required();
  cmd->add_option("-o,--output", o->output, "The HTML file to write (- for standard output)")->capture_default_str();
  cmd->add_option("--distribution", o->distribution,
                  "Distribution whose per-rank breakdown is drawn (default: GBS, the searched one)");
  cmd->add_option("--title", o->title, "Title of the page")->capture_default_str();
  cmd->callback([o, &exit_code] { exit_code = run_reporting_errors("report", [&] { return run_report(*o); }); });
}

}  // namespace mheta::cli
