#pragma once
// Every output a command writes (-o): `-` means standard output, anything
// else is written atomically (model/text_file.hpp).
#include <filesystem>
#include <string_view>

namespace mheta::model {

// Throws OutputError when the text cannot be written.
void write_output(const std::filesystem::path& path, std::string_view text);

}  // namespace mheta::model
