#include "interpose/active_target_times.hpp"

#include "interpose/sleep_wait.hpp"

namespace mheta::interpose {

namespace {
// Nothing else travels on the window's own duplicate (its fences meet on its
// shadow): a tag for each direction keeps posts and completions apart.
constexpr int kPostTag = 1;
constexpr int kCompletionTag = 2;
}  // namespace

ActiveTargetTimes::~ActiveTargetTimes() {
  for (std::vector<MPI_Request>* requests : {&completion_requests_, &post_requests_}) {
    for (MPI_Request& request : *requests) {
      if (request == MPI_REQUEST_NULL) continue;
      PMPI_Cancel(&request);
      PMPI_Request_free(&request);
    }
  }
  for (Sent& s : sent_) {
    int done = 0;
    PMPI_Test(&s.request, &done, MPI_STATUS_IGNORE);
    if (!done) PMPI_Request_free(&s.request);
  }
}

void ActiveTargetTimes::send(int dest, int tag, double first, double second) {
  while (!sent_.empty()) {  // the sends that have completed go
    int done = 0;
    PMPI_Test(&sent_.front().request, &done, MPI_STATUS_IGNORE);
    if (!done) break;
    sent_.pop_front();
  }
  Sent& s = sent_.emplace_back();
  s.value[0] = first;
  s.value[1] = second;
  PMPI_Isend(s.value, 2, MPI_DOUBLE, dest, tag, comm_, &s.request);
}

void ActiveTargetTimes::expect(const std::vector<int>& sources, int tag, std::vector<double>& values,
                               std::vector<MPI_Request>& requests) {
  values.assign(2 * sources.size(), 0);
  requests.assign(sources.size(), MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    PMPI_Irecv(&values[2 * i], 2, MPI_DOUBLE, sources[i], tag, comm_, &requests[i]);
  }
}

void ActiveTargetTimes::wait_all(std::vector<MPI_Request>& requests) {
  const int n = static_cast<int>(requests.size());
  if (!sleep_wait_) {
    PMPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE);
    return;
  }
  poll_with_sleeps([&](int* done) { return PMPI_Testall(n, requests.data(), done, MPI_STATUSES_IGNORE); });
}

void ActiveTargetTimes::posted(std::vector<int> origins, double posted) {
  origins_ = std::move(origins);
  // The receives first: an origin's completion may come as soon as the post has gone.
  expect(origins_, kCompletionTag, completions_, completion_requests_);
  for (const int origin : origins_) send(origin, kPostTag, posted, 0);
}

void ActiveTargetTimes::started(std::vector<int> targets) {
  targets_ = std::move(targets);
  expect(targets_, kPostTag, posts_, post_requests_);
}

std::vector<PostTime> ActiveTargetTimes::post_times() {
  wait_all(post_requests_);
  std::vector<PostTime> times(targets_.size());
  for (std::size_t i = 0; i < times.size(); ++i) times[i] = {.target = targets_[i], .posted = posts_[2 * i]};
  targets_.clear();  // the epoch's: a next one starts afresh
  return times;
}

void ActiveTargetTimes::completed(const std::vector<Completion>& to_targets) {
  for (const Completion& c : to_targets) send(c.peer, kCompletionTag, c.done, c.arrives);
}

std::vector<Completion> ActiveTargetTimes::completions() {
  wait_all(completion_requests_);
  std::vector<Completion> each(origins_.size());
  for (std::size_t i = 0; i < each.size(); ++i) {
    each[i] = {.peer = origins_[i], .done = completions_[2 * i], .arrives = completions_[2 * i + 1]};
  }
  origins_.clear();
  return each;
}

}  // namespace mheta::interpose
