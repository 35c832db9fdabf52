#include "interpose/shadow_comms.hpp"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>
#include <cstdio>

#include "interpose/clock.hpp"
#include "interpose/communicators.hpp"
#include "interpose/sleep_wait.hpp"

namespace mheta::interpose {

namespace {

// A send time leaves its sender before its message, so it is there, or on
// its way, when the message has arrived. Longer than this without it, the
// message was sent by a call the interposer does not see.
constexpr double kMissingAfter = 0.5;
// Probes before the first sleep: each makes MPI progress, and the time is
// normally found at the first.
constexpr int kSpinTries = 64;

// The ranks of MPI_COMM_WORLD of `comm`'s local group, and of the group its
// point-to-point peers are named in (the remote group of an
// intercommunicator).
std::pair<std::vector<int>, std::vector<int>> members_and_peers(MPI_Comm comm) {
  std::vector<int> members = world_members(comm);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (!inter) return {members, members};
  MPI_Group group = MPI_GROUP_NULL;
  PMPI_Comm_remote_group(comm, &group);
  std::vector<int> peers = world_ranks_of(group);
  PMPI_Group_free(&group);
  return {std::move(members), std::move(peers)};
}

// Receives the times that arrived on `shadow` and that no receive of the
// program will take (their message went by a call the clock did not follow,
// or threads took it after the clock fell back): MPI's transport warns of
// each unmatched message at MPI_Finalize, on the program's output.
void drain(MPI_Comm shadow) {
  std::vector<char> buffer;
  for (;;) {
    int waiting = 0;
    MPI_Status status{};
    if (PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, shadow, &waiting, &status) != MPI_SUCCESS || !waiting) return;
    int bytes = 0;
    PMPI_Get_count(&status, MPI_BYTE, &bytes);
    buffer.resize(static_cast<std::size_t>(std::max(bytes, 1)));
    PMPI_Recv(buffer.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, shadow, MPI_STATUS_IGNORE);
  }
}

}  // namespace

void ShadowComms::start(bool sleep_wait) {
  sleep_wait_ = sleep_wait;
  add(MPI_COMM_WORLD);
  add(MPI_COMM_SELF);
}

void ShadowComms::finish() {
  std::lock_guard lock(mutex_);
  // Times nobody received (a message the program never received) must not
  // keep MPI_Finalize waiting: what has not completed is let go.
  for (InFlight& s : in_flight_) {
    int done = 0;
    PMPI_Test(&s.request, &done, MPI_STATUS_IGNORE);
    if (!done) PMPI_Request_free(&s.request);
  }
  in_flight_.clear();
  for (auto& [comm, shadow] : shadows_) {
    drain(shadow.comm);
    drain(shadow.acks);
    PMPI_Comm_free(&shadow.comm);
    PMPI_Comm_free(&shadow.acks);
  }
  shadows_.clear();
}

void ShadowComms::add(MPI_Comm comm) {
  // A communicator reaching processes of another MPI_COMM_WORLD (spawned,
  // another job's) has none: those run unwatched and would never duplicate
  // it. Every member sees the same groups, so none duplicates it.
  if (comm == MPI_COMM_NULL || !within_world(comm)) return;
  Shadow s;
  if (PMPI_Comm_dup(comm, &s.comm) != MPI_SUCCESS) return;
  if (PMPI_Comm_dup(comm, &s.acks) != MPI_SUCCESS) {
    PMPI_Comm_free(&s.comm);
    return;
  }
  std::tie(s.world_ranks, s.peer_world_ranks) = members_and_peers(comm);
  s.neighbourhood = neighbourhood_of(comm);
  std::lock_guard lock(mutex_);
  shadows_[comm] = std::move(s);
}

void ShadowComms::remove(MPI_Comm comm) {
  std::lock_guard lock(mutex_);
  const auto it = shadows_.find(comm);
  if (it == shadows_.end()) return;
  PMPI_Comm_free(&it->second.comm);
  PMPI_Comm_free(&it->second.acks);
  shadows_.erase(it);
}

std::unique_ptr<PendingShadows> ShadowComms::post_duplicate(MPI_Comm comm) {
  std::lock_guard lock(mutex_);
  const auto it = shadows_.find(comm);
  if (it == shadows_.end()) return nullptr;
  auto pending = std::make_unique<PendingShadows>();
  pending->world_ranks = it->second.world_ranks;  // a duplicate has the same groups
  pending->peer_world_ranks = it->second.peer_world_ranks;
  PMPI_Comm_idup(it->second.comm, &pending->comm, &pending->requests[0]);
  PMPI_Comm_idup(it->second.acks, &pending->acks, &pending->requests[1]);
  return pending;
}

void ShadowComms::adopt(MPI_Comm comm, PendingShadows& pending) {
  for (MPI_Request& request : pending.requests) {
    if (request != MPI_REQUEST_NULL) wait(&request);
  }
  if (comm == MPI_COMM_NULL) return;
  std::optional<Neighbourhood> neighbours = neighbourhood_of(comm);
  std::lock_guard lock(mutex_);
  shadows_[comm] = Shadow{.comm = pending.comm,
                          .acks = pending.acks,
                          .world_ranks = std::move(pending.world_ranks),
                          .peer_world_ranks = std::move(pending.peer_world_ranks),
                          .neighbourhood = std::move(neighbours)};
}

MPI_Comm ShadowComms::shadow(MPI_Comm comm) const {
  std::lock_guard lock(mutex_);
  const auto it = shadows_.find(comm);
  return it == shadows_.end() ? MPI_COMM_NULL : it->second.comm;
}

const std::vector<int>* ShadowComms::members(MPI_Comm comm) const {
  std::lock_guard lock(mutex_);
  const auto it = shadows_.find(comm);
  return it == shadows_.end() ? nullptr : &it->second.world_ranks;
}

const std::vector<int>* ShadowComms::peers(MPI_Comm comm) const {
  std::lock_guard lock(mutex_);
  const auto it = shadows_.find(comm);
  return it == shadows_.end() ? nullptr : &it->second.peer_world_ranks;
}

void ShadowComms::complete_finished_sends() {
  while (!in_flight_.empty()) {
    int done = 0;
    PMPI_Test(&in_flight_.front().request, &done, MPI_STATUS_IGNORE);
    if (!done) return;
    in_flight_.pop_front();
  }
}

void ShadowComms::post(MPI_Comm shadow, int dest, int tag, const double (&value)[2]) {
  std::lock_guard lock(mutex_);
  complete_finished_sends();
  InFlight& time = in_flight_.emplace_back();
  time.value[0] = value[0];
  time.value[1] = value[1];
  PMPI_Isend(time.value, 2, MPI_DOUBLE, dest, tag, shadow, &time.request);
}

void ShadowComms::post_send_time(MPI_Comm comm, int dest, int tag, SendTime sent) {
  if (dest == MPI_PROC_NULL) return;
  const MPI_Comm s = shadow(comm);
  if (s != MPI_COMM_NULL) post(s, dest, tag, {sent.sent, sent.synchronous});
}

void ShadowComms::post_answer(MPI_Comm comm, int source, int tag, double receive_posted) {
  if (source < 0) return;
  MPI_Comm acks = MPI_COMM_NULL;
  {
    std::lock_guard lock(mutex_);
    const auto it = shadows_.find(comm);
    if (it != shadows_.end()) acks = it->second.acks;
  }
  if (acks != MPI_COMM_NULL) post(acks, source, tag, {receive_posted, 0});
}

int ShadowComms::wait(MPI_Request* request) {
  if (!sleep_wait_) return PMPI_Wait(request, MPI_STATUS_IGNORE);
  return poll_with_sleeps([&](int* done) { return PMPI_Test(request, done, MPI_STATUS_IGNORE); });
}

bool ShadowComms::arrives(MPI_Comm shadow, int source, int tag, const char* what) {
  // The time is almost always there already; the probe only keeps a message
  // sent without one from blocking the receiver for ever.
  const double start = now_s();
  int there = 0;
  double pause = 1e-6;
  for (int tries = 0;; ++tries) {
    PMPI_Iprobe(source, tag, shadow, &there, MPI_STATUS_IGNORE);
    if (there || now_s() - start > kMissingAfter) break;
    if (tries >= kSpinTries) {
      sleep_s(pause);
      pause = std::min(pause * 2, 1e-3);
    }
  }
  if (there) return true;
  std::lock_guard lock(mutex_);
  if (!warned_missing_) {
    warned_missing_ = true;
    std::fprintf(stderr, "mheta interpose: %s rank %d (tag %d) came without its virtual time (%s); %s\n",
                 what, source, tag, "a call the interposer does not follow", "the virtual clock goes on without it");
  }
  return false;
}

std::optional<SendTime> ShadowComms::take_send_time(MPI_Comm comm, int source, int tag) {
  if (source < 0) return std::nullopt;  // MPI_PROC_NULL, a cancelled or generalized request
  const MPI_Comm s = shadow(comm);
  if (s == MPI_COMM_NULL || !arrives(s, source, tag, "a message from")) return std::nullopt;
  double time[2] = {0, 0};
  PMPI_Recv(time, 2, MPI_DOUBLE, source, tag, s, MPI_STATUS_IGNORE);
  return SendTime{.sent = time[0], .synchronous = time[1]};
}

std::optional<double> ShadowComms::take_answer(MPI_Comm comm, int dest, int tag) {
  if (dest < 0) return std::nullopt;
  MPI_Comm acks = MPI_COMM_NULL;
  {
    std::lock_guard lock(mutex_);
    const auto it = shadows_.find(comm);
    if (it != shadows_.end()) acks = it->second.acks;
  }
  if (acks == MPI_COMM_NULL || !arrives(acks, dest, tag, "the answer to a synchronous send, from")) return std::nullopt;
  double time[2] = {0, 0};
  PMPI_Recv(time, 2, MPI_DOUBLE, dest, tag, acks, MPI_STATUS_IGNORE);
  return time[0];
}

std::unique_ptr<EntryExchange> ShadowComms::post_entry(MPI_Comm comm, double entry) {
  const MPI_Comm s = shadow(comm);
  if (s == MPI_COMM_NULL) return nullptr;
  auto exchange = std::make_unique<EntryExchange>();
  exchange->mine = entry;
  exchange->latest = entry;
  PMPI_Iallreduce(&exchange->mine, &exchange->latest, 1, MPI_DOUBLE, MPI_MAX, s, &exchange->request);
  return exchange;
}

double ShadowComms::latest_entry(EntryExchange& exchange) {
  if (exchange.request != MPI_REQUEST_NULL) wait(&exchange.request);
  // On an intercommunicator the reduction is the other group's: the latest
  // of both is the collective's.
  return std::max(exchange.mine, exchange.latest);
}

const Neighbourhood* ShadowComms::neighbourhood(MPI_Comm comm) const {
  std::lock_guard lock(mutex_);
  const auto it = shadows_.find(comm);
  return it == shadows_.end() || !it->second.neighbourhood ? nullptr : &*it->second.neighbourhood;
}

std::unique_ptr<NeighbourExchange> ShadowComms::post_arrivals(MPI_Comm comm, std::vector<double> arrivals,
                                                              double sends_out) {
  const Neighbourhood* neighbours = neighbourhood(comm);
  const MPI_Comm s = shadow(comm);
  if (neighbours == nullptr || s == MPI_COMM_NULL) return nullptr;
  auto exchange = std::make_unique<NeighbourExchange>();
  exchange->sent = std::move(arrivals);
  exchange->sends_out = sends_out;
  // A block from MPI_PROC_NULL never comes: its slot keeps -inf.
  exchange->received.assign(std::max<std::size_t>(neighbours->sources.size(), 1),
                            -std::numeric_limits<double>::infinity());
  if (exchange->sent.empty()) exchange->sent.push_back(0);  // MPI may take a null buffer for a missing one
  PMPI_Ineighbor_alltoall(exchange->sent.data(), 1, MPI_DOUBLE, exchange->received.data(), 1, MPI_DOUBLE, s,
                          &exchange->request);
  return exchange;
}

double ShadowComms::latest_arrival(NeighbourExchange& exchange) {
  if (exchange.request != MPI_REQUEST_NULL) wait(&exchange.request);
  double latest = exchange.sends_out;
  for (const double arrival : exchange.received) latest = std::max(latest, arrival);
  return latest;
}

}  // namespace mheta::interpose
