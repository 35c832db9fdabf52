#pragma once
// The calls that end iterations, as users and files name them: "MPI_Name[:k]"
// (every k-th call of MPI_Name), or one per rank separated by commas where
// the ranks' differ (an entry is empty for a rank whose iterations end at
// no call). `mheta run --capture call:`, `--accounting-call`,
// MHETA_ACCOUNTING_CALL and accounting.json's `call` all take this form.
#include <optional>
#include <string_view>

namespace mheta::model {

// "MPI_Name[:k]", k a positive whole number.
bool is_call(std::string_view call);

// One call, or calls one per rank separated by commas (entries may be
// empty, not all).
bool is_call_list(std::string_view list);

// Rank `rank`'s entry of `list` (the list itself when it has no comma), or
// nothing when the list has no entry for it.
std::optional<std::string_view> call_of_rank(std::string_view list, int rank);

}  // namespace mheta::model
