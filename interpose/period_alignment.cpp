#include "interpose/period_alignment.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <tuple>

#include "interpose/period_rotation.hpp"

namespace mheta::interpose {

namespace {

// A rank's period as the alignment sees it: for each channel, where its
// first message is in the channel, and the positions of its messages among
// the period's communication operations.
struct Period {
  int ops = 0;  // communication operations: the places a period may begin at
  std::vector<ChannelStart> channels;
  std::vector<std::vector<int>> positions;         // per channel, increasing
  std::map<std::tuple<int, int, int>, int> index;  // channel -> its place in `channels`

  static std::tuple<int, int, int> key(const Channel& c) { return {static_cast<int>(c.kind), c.peer, c.tag}; }
  void set_channels(const std::vector<ChannelStart>& starts) {
    channels = starts;
    positions.assign(channels.size(), {});
    for (std::size_t i = 0; i < channels.size(); ++i) index.emplace(key(channels[i].channel), static_cast<int>(i));
  }
  int channel(const Channel& c) const {
    const auto found = index.find(key(c));
    return found == index.end() ? -1 : found->second;
  }
  std::int64_t per_period(int ch) const {
    return static_cast<std::int64_t>(positions[static_cast<std::size_t>(ch)].size());
  }
  // The number of the channel's first message in the period begun at
  // operation `cut` and moved by `shift` whole periods.
  std::int64_t first(int ch, int cut, std::int64_t shift) const {
    const auto& at = positions[static_cast<std::size_t>(ch)];
    return channels[static_cast<std::size_t>(ch)].first + (std::lower_bound(at.begin(), at.end(), cut) - at.begin()) +
           shift * per_period(ch);
  }
};

// Two channels that carry the same messages: channel `mine` of one rank
// and channel `theirs` of rank `other`.
struct Link {
  int mine = 0;
  int other = 0;
  int theirs = 0;
};

std::string kind_phrase(model::CommKind kind, std::int64_t n, int peer) {
  const std::string messages = std::to_string(n) + (n == 1 ? " message" : " messages");
  if (kind == model::CommKind::send) return "sends " + messages + " to rank " + std::to_string(peer);
  if (kind == model::CommKind::recv) return "receives " + messages + " from rank " + std::to_string(peer);
  return "calls " + std::to_string(n) + (n == 1 ? " collective" : " collectives");
}

// Why two periods cannot be one window: they hold different messages.
std::string different_messages(int rank, const Channel& mine, std::int64_t n, int other, std::int64_t m) {
  const Channel theirs =
      mine.kind == model::CommKind::collective
          ? mine
          : Channel{mine.kind == model::CommKind::send ? model::CommKind::recv : model::CommKind::send, rank, mine.tag};
  std::string tag = mine.kind == model::CommKind::collective ? ""
                    : mine.tag == kNeighbourTag   ? " (of neighbourhood collectives)"
                                                  : " (tag " + std::to_string(mine.tag) + ")";
  return "rank " + std::to_string(rank) + "'s captured period " + kind_phrase(mine.kind, n, mine.peer) + tag +
         " where rank " + std::to_string(other) + "'s " + kind_phrase(theirs.kind, m, theirs.peer) +
         ": the ranks' periods hold different iterations, whose messages differ (which rank gets which message "
         "changes from one iteration to the next, as when work goes to whichever worker answers first), and no "
         "rotation of them pairs up";
}

// The search gives up past this many candidate places tried (the periods
// usually leave one or two per rank).
constexpr std::int64_t kSearchBudget = 1 << 20;

class Aligner {
 public:
  explicit Aligner(const std::vector<RankRecord>& records) : records_(records), periods_(records.size()) {}

  // Whether every period says where it began in each of its channels, and
  // every channel's messages are as many on both sides; fills `problem_`
  // with the first that are not.
  bool prepare();
  // The cut (and shift) of every rank, the captured start first.
  bool search();
  const std::vector<int>& cuts() const { return cut_; }
  // The cut of every rank that begins its period at the same one of its
  // collectives, where every rank's lie at the same distances from one
  // another (none where they do not).
  std::optional<std::vector<int>> cuts_at_a_collective() const;
  const std::string& problem() const { return problem_; }
  const Period& period(std::size_t r) const { return periods_[r]; }

 private:
  bool in(std::size_t r) const { return records_[r].complete && !records_[r].sections.empty(); }
  std::vector<int> order() const;
  // The shift rank r needs at `cut` to agree with the ranks placed, if any.
  std::optional<std::int64_t> fits(int r, int cut) const;
  std::int64_t first_of(int r, int ch) const {
    return periods_[static_cast<std::size_t>(r)].first(ch, cut_[static_cast<std::size_t>(r)],
                                                       shift_[static_cast<std::size_t>(r)]);
  }

  const std::vector<RankRecord>& records_;
  std::vector<Period> periods_;
  std::vector<std::vector<Link>> links_;
  std::vector<int> collective_;  // each rank's collective channel, -1: none
  std::vector<int> cut_;
  std::vector<std::int64_t> shift_;
  std::vector<bool> placed_;
  int collective_reference_ = -1;  // the first rank placed that calls collectives
  std::string problem_;
};

bool Aligner::prepare() {
  const std::size_t ranks = records_.size();
  for (std::size_t r = 0; r < ranks; ++r) {
    if (!in(r)) continue;
    Period& p = periods_[r];
    p.set_channels(records_[r].channel_starts);
    for (const model::Section& s : records_[r].sections) {
      for (const model::CommOp& op : s.comm) {
        if (op.tag == kWindowTag && op.kind != model::CommKind::collective) {  // placed by its fence
          ++p.ops;
          continue;
        }
        const int ch = p.channel(channel_of(op));
        if (ch < 0) return false;  // a period that does not say where it began
        p.positions[static_cast<std::size_t>(ch)].push_back(p.ops++);
      }
    }
  }
  links_.assign(ranks, {});
  collective_.assign(ranks, -1);
  int collective_rank = -1;
  for (std::size_t r = 0; r < ranks; ++r) {
    if (!in(r)) continue;
    const Period& p = periods_[r];
    for (std::size_t ch = 0; ch < p.channels.size(); ++ch) {
      const Channel& c = p.channels[ch].channel;
      const std::int64_t n = p.per_period(static_cast<int>(ch));
      if (n == 0) continue;
      if (c.kind == model::CommKind::collective) {
        collective_[r] = static_cast<int>(ch);
        if (collective_rank < 0) collective_rank = static_cast<int>(r);
        const Period& q = periods_[static_cast<std::size_t>(collective_rank)];
        const std::int64_t m = q.per_period(collective_[static_cast<std::size_t>(collective_rank)]);
        if (m != n) {
          problem_ = different_messages(static_cast<int>(r), c, n, collective_rank, m);
          return false;
        }
        continue;
      }
      const Channel theirs{c.kind == model::CommKind::send ? model::CommKind::recv : model::CommKind::send,
                           static_cast<int>(r), c.tag};
      const int other = c.peer;
      const bool known = other >= 0 && static_cast<std::size_t>(other) < ranks && in(static_cast<std::size_t>(other));
      const int their = known ? periods_[static_cast<std::size_t>(other)].channel(theirs) : -1;
      const std::int64_t m = their >= 0 ? periods_[static_cast<std::size_t>(other)].per_period(their) : 0;
      if (m != n) {
        problem_ = different_messages(static_cast<int>(r), c, n, other, m);
        return false;
      }
      links_[r].push_back({static_cast<int>(ch), other, their});
    }
  }
  // A rank with collectives where another has none.
  if (collective_rank >= 0) {
    for (std::size_t r = 0; r < ranks; ++r) {
      if (in(r) && collective_[r] < 0) {
        problem_ = different_messages(collective_rank, collective_channel(),
                                      periods_[static_cast<std::size_t>(collective_rank)].per_period(
                                          collective_[static_cast<std::size_t>(collective_rank)]),
                                      static_cast<int>(r), 0);
        return false;
      }
    }
  }
  return true;
}

// Ranks in the order they are placed: along the channels from the lowest
// rank of each group that exchanges messages, so that each rank placed
// after the first of its group meets one placed before it.
std::vector<int> Aligner::order() const {
  std::vector<int> out;
  std::vector<bool> queued(records_.size(), false);
  bool collectives_queued = false;
  for (std::size_t start = 0; start < records_.size(); ++start) {
    if (!in(start) || queued[start]) continue;
    std::deque<int> next{static_cast<int>(start)};
    queued[start] = true;
    while (!next.empty()) {
      const int r = next.front();
      next.pop_front();
      out.push_back(r);
      const auto enqueue = [&](int other) {
        if (!queued[static_cast<std::size_t>(other)]) {
          queued[static_cast<std::size_t>(other)] = true;
          next.push_back(other);
        }
      };
      for (const Link& l : links_[static_cast<std::size_t>(r)]) enqueue(l.other);
      if (collective_[static_cast<std::size_t>(r)] >= 0 && !collectives_queued) {
        collectives_queued = true;
        for (std::size_t o = 0; o < records_.size(); ++o) {
          if (collective_[o] >= 0) enqueue(static_cast<int>(o));
        }
      }
    }
  }
  return out;
}

std::optional<std::int64_t> Aligner::fits(int r, int cut) const {
  const Period& p = periods_[static_cast<std::size_t>(r)];
  std::optional<std::int64_t> shift;
  // Channel `ch` of rank r must begin at message `first`.
  const auto agree = [&](int ch, std::int64_t first) {
    const std::int64_t need = first - p.first(ch, cut, 0);
    const std::int64_t n = p.per_period(ch);
    if (need % n != 0) return false;
    if (!shift) shift = need / n;
    return *shift == need / n;
  };
  for (const Link& l : links_[static_cast<std::size_t>(r)]) {
    if (l.other == r) continue;  // to itself: checked once the shift is known
    if (placed_[static_cast<std::size_t>(l.other)] && !agree(l.mine, first_of(l.other, l.theirs))) return std::nullopt;
  }
  const int collective = collective_[static_cast<std::size_t>(r)];
  if (collective >= 0 && collective_reference_ >= 0 &&
      !agree(collective,
             first_of(collective_reference_, collective_[static_cast<std::size_t>(collective_reference_)]))) {
    return std::nullopt;
  }
  const std::int64_t s = shift.value_or(0);
  for (const Link& l : links_[static_cast<std::size_t>(r)]) {
    if (l.other == r && p.first(l.mine, cut, s) != p.first(l.theirs, cut, s)) return std::nullopt;
  }
  return s;
}

bool Aligner::search() {
  const std::vector<int> ranks = order();
  cut_.assign(records_.size(), 0);
  shift_.assign(records_.size(), 0);
  placed_.assign(records_.size(), false);
  // Depth first: rank ranks[i] tries its cuts from next[i] on.
  std::vector<int> next(ranks.size(), 0);
  std::vector<int> reference_at(ranks.size(), -1);  // the collective reference before placing ranks[i]
  std::int64_t tried = 0;
  std::size_t i = 0;
  while (i < ranks.size()) {
    const int r = ranks[i];
    const int ops = std::max(1, periods_[static_cast<std::size_t>(r)].ops);  // a period without messages: as captured
    bool placed = false;
    while (next[i] < ops) {
      const int cut = next[i]++;
      if (++tried > kSearchBudget) {
        problem_ = "no rotation of the ranks' captured periods found that pairs up their messages within " +
                   std::to_string(kSearchBudget) + " tries";
        return false;
      }
      if (const auto shift = fits(r, cut)) {
        cut_[static_cast<std::size_t>(r)] = cut;
        shift_[static_cast<std::size_t>(r)] = *shift;
        placed_[static_cast<std::size_t>(r)] = true;
        reference_at[i] = collective_reference_;
        if (collective_reference_ < 0 && collective_[static_cast<std::size_t>(r)] >= 0) collective_reference_ = r;
        placed = true;
        break;
      }
    }
    if (placed) {
      ++i;
      continue;
    }
    // No cut of this rank fits: the one before it tries its next.
    next[i] = 0;
    if (i == 0) {
      problem_ =
          "the ranks' captured periods hold the same messages, but no rotation of them makes every "
          "channel's messages the same ones on both sides";
      return false;
    }
    --i;
    const auto back = static_cast<std::size_t>(ranks[i]);
    placed_[back] = false;
    collective_reference_ = reference_at[i];
  }
  return true;
}

// Each rank's collectives, by the distances (in operations) from each to
// the next around the period, read from the one where they are least
// (lexicographically): the same collective on every rank whose period
// holds the same pattern, wherever it was captured from.
std::optional<std::vector<int>> Aligner::cuts_at_a_collective() const {
  std::vector<int> cuts(records_.size(), 0);
  std::optional<std::vector<int>> pattern;
  for (std::size_t r = 0; r < records_.size(); ++r) {
    if (!in(r)) continue;
    if (collective_[r] < 0) return std::nullopt;
    const Period& p = periods_[r];
    const std::vector<int>& at = p.positions[static_cast<std::size_t>(collective_[r])];
    const std::size_t k = at.size();
    const auto distances_from = [&](std::size_t first) {
      std::vector<int> d(k);
      for (std::size_t j = 0; j < k; ++j) {
        const std::size_t i = (first + j) % k;
        d[j] = (i + 1 < k ? at[i + 1] : at[0] + p.ops) - at[i];
      }
      return d;
    };
    std::size_t first = 0;
    std::vector<int> least = distances_from(0);
    for (std::size_t i = 1; i < k; ++i) {
      std::vector<int> d = distances_from(i);
      if (d < least) {
        least = std::move(d);
        first = i;
      }
    }
    if (pattern && *pattern != least) return std::nullopt;
    pattern = std::move(least);
    cuts[r] = at[first];
  }
  return cuts;
}

// Rotates every rank's period at its cut (`result` says which were).
void rotate(std::vector<RankRecord>& records, const Aligner& aligner, const std::vector<int>& cuts,
            PeriodAlignment& result) {
  result.aligned = true;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const int cut = cuts[r];
    if (cut == 0) continue;
    RankRecord& record = records[r];
    record.sections = rotate_period(record.sections, cut);
    const Period& p = aligner.period(r);
    for (std::size_t ch = 0; ch < record.channel_starts.size(); ++ch) {
      record.channel_starts[ch].first = p.first(static_cast<int>(ch), cut, 0);
    }
    result.rotated.push_back(static_cast<int>(r));
  }
}

}  // namespace

PeriodAlignment align_periods(std::vector<RankRecord>& records) {
  PeriodAlignment result;
  Aligner aligner(records);
  if (!aligner.prepare() || !aligner.search()) {
    result.problem = aligner.problem();
    return result;
  }
  rotate(records, aligner, aligner.cuts(), result);
  return result;
}

PeriodAlignment align_at_a_collective(std::vector<RankRecord>& records) {
  PeriodAlignment result;
  Aligner aligner(records);
  std::optional<std::vector<int>> cuts;
  if (aligner.prepare()) cuts = aligner.cuts_at_a_collective();
  if (!cuts) {
    result.problem = "the ranks' captured periods hold their collectives at different places";
    return result;
  }
  result.at_a_collective = true;
  rotate(records, aligner, *cuts, result);
  return result;
}

}  // namespace mheta::interpose
