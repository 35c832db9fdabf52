#include <iostream>

#include "cli/command.hpp"
#include <mheta/exit_codes.hpp>
#include "model/format_error.hpp"
#include "model/model.hpp"
#include "model/text_file.hpp"

namespace mheta::cli {

int run_reporting_errors(const char* command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& error) {
    std::cerr << "mheta " << command << ": " << error.what() << "\n";
    return kExitUsage;
  } catch (const model::FormatError& error) {
    std::cerr << "mheta " << command << ": " << error.what() << "\n";
    return kExitBadInput;
  } catch (const model::ModelError& error) {
    std::cerr << "mheta " << command << ": the inputs cannot be modelled together: " << error.what() << "\n";
    return kExitBadInput;
  } catch (const model::OutputError& error) {
    std::cerr << "mheta " << command << ": " << error.what() << "\n";
    return kExitCannotWrite;
  } catch (const std::exception& error) {
    std::cerr << "mheta " << command << ": " << error.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace mheta::cli
