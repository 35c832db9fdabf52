#pragma once
// The canonical distributions of the MHETA paper (§5.1, Fig 8) and the
// spectrum between them that the paper tested its predictions on.
//   Blk      equal rows
//   Bal      work in proportion to compute speed (1 / compute seconds per
//            unit of work: a row, or its weight), ignoring I/O
//   I-C      minimize I/O, ignoring load: rows in proportion to what each
//            rank holds in core; when the ranks cannot hold everything in
//            core, each holds what it can and the rest goes to the one rank
//            whose I/O for it costs least
//   I-C/Bal  as many ranks fully in core as possible, then balanced: rows in
//            proportion to speed, capped at what each holds in core; when
//            the caps cannot cover the data, one rank (the one that then
//            finishes first) goes out of core and takes the rest
// All respect the row bounds (min rows, ranks that cannot hold a row).
#include <string>
#include <string_view>
#include <vector>

#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "search/row_bounds.hpp"

namespace mheta::search {

enum class Canonical { blk, bal, in_core, in_core_balanced };
inline constexpr Canonical kCanonicals[] = {Canonical::blk, Canonical::bal, Canonical::in_core,
                                            Canonical::in_core_balanced};

std::string_view canonical_name(Canonical which);  // "Blk", "Bal", "I-C", "I-C/Bal"
// Accepts the names above in any letter case; throws SearchError otherwise.
Canonical canonical_from_name(std::string_view name);

model::GenBlock canonical_distribution(const model::Model& model, const RowBounds& bounds, Canonical which);

struct NamedDistribution {
  std::string name;  // "Blk", "Blk->I-C 1/4", ...
  model::GenBlock dist;
};

// The paper's test set: Blk -> I-C -> I-C/Bal -> Bal -> Blk, each leg in
// `steps` equal steps (rows interpolated linearly between the ends, then
// rounded), 4*steps + 1 points. A point equal to the one before it is left
// out: when the CPUs are equal Bal is Blk, when memory is plentiful I-C/Bal
// is Bal, and the paper walked only the legs that differ.
std::vector<NamedDistribution> spectrum(const model::Model& model, const RowBounds& bounds, int steps);

}  // namespace mheta::search
