#include "io/redistribution.hpp"

#include <fcntl.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "io/background_release.hpp"
#include "io/manifest.hpp"
#include "io/mapped_rows.hpp"
#include "io/redistribution_checksum.hpp"
#include "io/redistribution_fault.hpp"
#include "io/redistribution_recovery.hpp"
#include "model/redistribution_plan.hpp"

namespace mheta::io {

namespace {

// Rows of one variable this rank writes into its new block: kept from its
// old block or received from `peer`, with the checksum the rows had when
// they were read from the old block.
struct Piece {
  int peer = -1;               // -1: kept
  std::int64_t first_row = 0;  // global
  std::int64_t rows = 0;
  std::uint64_t checksum = 0;
};

// The first failure on this rank; later steps are skipped but the rank keeps
// taking part in every message and collective, so no other rank waits for
// it forever. The ranks agree on the outcome afterwards.
class FirstError {
 public:
  void attempt(const std::function<void()>& step) {
    if (!text_.empty()) return;
    try {
      step();
    } catch (const std::exception& e) {
      text_ = e.what();
      if (text_.empty()) text_ = "failed";
    }
  }
  bool failed() const { return !text_.empty(); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Waits until one of `requests` completes, like MPI_Waitsome, but gives the
// processor away between polls. MPICH polls without blocking, and with more
// ranks than cores a rank spinning for its message takes the core from the
// rank that must write (or send) the pieces it waits for; yielding is not
// enough (the yielding rank stays runnable and keeps its share), so after a
// few polls it sleeps 50 us between them, short beside a piece's transfer
// (4 MiB: a millisecond or more). On this 2-core machine it took about 30%
// off the redistribution's processor time, with 2 ranks and with 4
// (docs/results.md, "Redistribution").
void wait_some(int count, MPI_Request* requests, int* completed, int* indices) {
  constexpr int kYields = 16;
  constexpr timespec kPause{0, 50'000};
  for (int polls = 0;; ++polls) {
    MPI_Testsome(count, requests, completed, indices, MPI_STATUSES_IGNORE);
    if (*completed != 0) return;  // some completed, or MPI_UNDEFINED: none active
    if (polls < kYields) {
      sched_yield();
    } else {
      nanosleep(&kPause, nullptr);
    }
  }
}

// A collective posted non-blocking and waited for like the pieces: a rank
// that arrives early (the others still writing, syncing or committing)
// gives its core to them instead of polling inside MPI. On this 2-core
// machine with 4 ranks, MPICH's polling was a quarter of the
// redistribution's processor time (docs/results.md, "Redistribution").
void wait_sleeping(MPI_Request& request) {
  int completed = 0;
  int index = 0;
  while (request != MPI_REQUEST_NULL) wait_some(1, &request, &completed, &index);
}

// Every rank learns whether any failed, and the lowest failing rank's
// message ("rank r: ..."); empty when none did. Collective.
std::string agree(MPI_Comm comm, const FirstError& error) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = error.failed() ? rank : size;
  int first = size;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm, &request);
  wait_sleeping(request);
  if (first == size) return "";
  std::string text = rank == first ? error.text() : "";
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, first, comm);
  return "rank " + std::to_string(first) + ": " + text;
}

void sync_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw LocalArrayError(path.string() + ": cannot open to sync: " + std::strerror(errno));
  const bool ok = ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok) throw LocalArrayError(path.string() + ": cannot sync (disk full?): " + std::strerror(saved));
}

std::vector<Piece> split(int peer, std::int64_t first_row, std::int64_t rows, std::int64_t piece_rows) {
  std::vector<Piece> pieces;
  for (std::int64_t done = 0; done < rows; done += piece_rows) {
    pieces.push_back({peer, first_row + done, std::min(piece_rows, rows - done), 0});
  }
  return pieces;
}

constexpr std::int64_t kMetadataBytes = 8192;  // HDF5 header and attributes of one block, generously
constexpr int kSlots = 2;                      // pieces in flight each way: one on the wire, one being written

// Copies, sends and receives one variable's rows into its new block.
// Returns the pieces written, for verification. The rows kept and sent are
// hashed and sent where they lie, in the old block's mapping; each piece
// travels as two messages, its checksum (eager: a few bytes) and its rows.
// Deadlock-free: sends and receives are posted in global row order on both
// sides, so the lowest unfinished piece always has its sends and receives
// posted, and the two messages of a piece match in the order posted.
class VariableExchange {
 public:
  VariableExchange(MPI_Comm comm, int rank, int tag, std::int64_t bytes_per_row, std::int64_t piece_rows,
                   FirstError& error)
      : comm_(comm), rank_(rank), tag_(tag), bpr_(bytes_per_row), piece_rows_(piece_rows), error_(error) {}

  // `old_rows` null: this rank's old block could not be opened; it still
  // sends (rows of no meaning) so that the others finish and learn of it.
  // `writeback_fd` (or -1): a descriptor of the new block's file, to start
  // writing each piece to disk while the next ones are exchanged.
  std::vector<Piece> run(const MappedRows* old_rows, LocalArray* new_block, int writeback_fd,
                         const model::GenBlock& from, const model::GenBlock& to, std::int64_t& bytes_sent,
                         std::int64_t& messages) {
    std::vector<Piece> outgoing;
    std::vector<Piece> incoming;
    for (const model::RowTransfer& t : model::plan_transfers(from, to)) {
      if (t.from == rank_) {
        auto p = split(t.to, t.first_row, t.rows, piece_rows_);
        outgoing.insert(outgoing.end(), p.begin(), p.end());
      }
      if (t.to == rank_) {
        auto p = split(t.from, t.first_row, t.rows, piece_rows_);
        incoming.insert(incoming.end(), p.begin(), p.end());
      }
    }
    const std::int64_t old_first = from.first_row(rank_);
    const std::int64_t new_first = to.first_row(rank_);
    const std::int64_t kept_first = std::max(old_first, new_first);
    const std::int64_t kept_end = std::min(old_first + from.rows[static_cast<std::size_t>(rank_)],
                                           new_first + to.rows[static_cast<std::size_t>(rank_)]);
    std::vector<Piece> kept = split(-1, kept_first, std::max<std::int64_t>(0, kept_end - kept_first), piece_rows_);
    // Receive buffers only as large as the largest piece this rank receives,
    // none when it receives nothing, and not zeroed (MPI writes them): two
    // zeroed 4 MiB buffers on every rank were 8 MiB of page faults and
    // zeroing a variable, a rank that only sends included, which an
    // emulated slow node's CPU factor multiplied on the move's critical
    // path (docs/results.md, "Redistribution on the fly: the receive
    // buffers").
    std::int64_t largest_incoming = 0;
    for (const Piece& p : incoming) largest_incoming = std::max(largest_incoming, p.rows * bpr_);
    for (auto& b : recv_buffers_) {
      b = largest_incoming > 0
              ? std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(largest_incoming))
              : nullptr;
    }
    if (old_rows == nullptr) no_rows_.resize(static_cast<std::size_t>(piece_rows_ * bpr_));
    auto old_piece = [&](const Piece& p) {
      return old_rows != nullptr ? old_rows->rows(p.first_row - old_first) : no_rows_.data();
    };

    std::vector<Piece> written;
    // Rows messages: sends in [0, kSlots), receives in [kSlots, 2 kSlots).
    std::array<MPI_Request, 2 * kSlots> requests;
    std::array<MPI_Request, 2 * kSlots> checksum_requests;
    requests.fill(MPI_REQUEST_NULL);
    checksum_requests.fill(MPI_REQUEST_NULL);
    std::array<std::size_t, kSlots> slot_piece{};
    std::size_t next_out = 0;
    std::size_t next_in = 0;
    std::size_t next_kept = 0;
    bool received_any = false;

    auto post_send = [&](int slot) {
      if (next_out == outgoing.size()) return;
      const Piece& p = outgoing[next_out];
      const std::byte* rows = old_piece(p);
      std::uint64_t& sum = checksums_[static_cast<std::size_t>(slot)];
      sum = rows_checksum(p.first_row, p.rows, bpr_, rows);
      MPI_Isend(&sum, 1, MPI_UINT64_T, p.peer, tag_, comm_, &checksum_requests[static_cast<std::size_t>(slot)]);
      MPI_Isend(rows, static_cast<int>(p.rows * bpr_), MPI_BYTE, p.peer, tag_, comm_,
                &requests[static_cast<std::size_t>(slot)]);
      bytes_sent += p.rows * bpr_;
      ++messages;
      ++next_out;
    };
    auto post_recv = [&](int slot) {
      if (next_in == incoming.size()) return;
      const Piece& p = incoming[next_in];
      const auto s = static_cast<std::size_t>(slot);
      slot_piece[s] = next_in;
      MPI_Irecv(&checksums_[kSlots + s], 1, MPI_UINT64_T, p.peer, tag_, comm_, &checksum_requests[kSlots + s]);
      MPI_Irecv(recv_buffers_[s].get(), static_cast<int>(p.rows * bpr_), MPI_BYTE, p.peer, tag_, comm_,
                &requests[kSlots + s]);
      ++next_in;
    };
    auto write_piece = [&](const Piece& p, const std::byte* rows) {
      error_.attempt([&] { new_block->write_rows(p.first_row - new_first, p.rows, rows); });
      // Asynchronous: the disk works during the exchange, and the fsync
      // before verification has little left to wait for.
      if (writeback_fd >= 0) ::sync_file_range(writeback_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
      written.push_back(p);
      if (p.peer >= 0 && !received_any) fault_point("mid-write", rank_);
      received_any = received_any || p.peer >= 0;
    };
    auto copy_kept = [&] {
      Piece p = kept[next_kept++];
      const std::byte* rows = old_piece(p);
      p.checksum = rows_checksum(p.first_row, p.rows, bpr_, rows);
      write_piece(p, rows);
    };

    for (int s = 0; s < kSlots; ++s) {
      post_recv(s);
      post_send(s);
    }
    std::array<int, 2 * kSlots> done{};
    for (;;) {
      int count = 0;
      if (next_kept < kept.size()) {
        // Local copies fill the time the messages are on the wire.
        copy_kept();
        MPI_Testsome(2 * kSlots, requests.data(), &count, done.data(), MPI_STATUSES_IGNORE);
      } else {
        wait_some(2 * kSlots, requests.data(), &count, done.data());
        if (count == MPI_UNDEFINED) break;  // nothing active: all sent and received
      }
      for (int i = 0; i < std::max(count, 0); ++i) {
        const auto index = static_cast<std::size_t>(done[static_cast<std::size_t>(i)]);
        // A piece's checksum was matched before its rows, and is done by now.
        MPI_Wait(&checksum_requests[index], MPI_STATUS_IGNORE);
        if (index < kSlots) {
          post_send(static_cast<int>(index));
          continue;
        }
        const std::size_t slot = index - kSlots;
        Piece p = incoming[slot_piece[slot]];
        p.checksum = checksums_[index];
        write_piece(p, recv_buffers_[slot].get());
        post_recv(static_cast<int>(slot));
      }
    }
    return written;
  }

 private:
  MPI_Comm comm_;
  int rank_;
  int tag_;
  std::int64_t bpr_;
  std::int64_t piece_rows_;
  FirstError& error_;
  std::array<std::unique_ptr<std::byte[]>, kSlots> recv_buffers_;
  std::array<std::uint64_t, 2 * kSlots> checksums_{};  // of the pieces in flight, as the requests
  std::vector<std::byte> no_rows_;
};

// Reads every written piece back from the reopened new block (its mapping:
// the bytes a reader of the file gets) against the checksum the rows had
// when they were read from their old block; the pieces must cover the
// block's rows exactly.
void verify(const LocalArray& block, std::vector<Piece> pieces, std::int64_t bytes_per_row) {
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.first_row < b.first_row; });
  const MappedRows rows(block);
  std::int64_t expected = block.first_row();
  for (const Piece& p : pieces) {
    if (p.first_row != expected) {
      throw LocalArrayError(block.path().string() + ": rows from global row " + std::to_string(expected) +
                            " were never written");
    }
    if (rows_checksum(p.first_row, p.rows, bytes_per_row, rows.rows(p.first_row - block.first_row())) != p.checksum) {
      throw LocalArrayError(block.path().string() + ": global rows [" + std::to_string(p.first_row) + ", " +
                            std::to_string(p.first_row + p.rows) + ") read back differ from the rows " +
                            (p.peer < 0 ? "kept" : "rank " + std::to_string(p.peer) + " sent"));
    }
    expected += p.rows;
  }
  if (expected != block.first_row() + block.local_rows()) {
    throw LocalArrayError(block.path().string() + ": " + std::to_string(expected - block.first_row()) +
                          " rows written, the block has " + std::to_string(block.local_rows()));
  }
}

// The new blocks are written beside the old ones: refuse to start when the
// disk cannot hold both (the data directory is one file system, as on this
// machine; a node-local disk per rank would need this check per rank).
void check_free_space(const std::filesystem::path& dir, const std::vector<RowShape>& variables,
                      const model::GenBlock& to) {
  std::int64_t needed = 0;
  for (const RowShape& v : variables) needed += to.total_rows() * v.bytes_per_row() + kMetadataBytes * to.ranks();
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(dir, ec);
  if (ec) return;  // unknown: the writes will tell
  if (static_cast<std::uintmax_t>(needed) > space.available) {
    throw RedistributionError(
        dir.string() + ": not enough free space for the new blocks beside the old ones: " + std::to_string(needed) +
        " bytes needed, " + std::to_string(space.available) + " available");
  }
}

// Every rank's renames are in the one directory: one fsync makes them
// durable before the manifest may say `complete`. Runs on the background
// thread: a failure is told on stderr and changes nothing for the data.
void complete_in_background(const std::filesystem::path& dir, const std::filesystem::path& staging, Manifest manifest) {
  try {
    sync_directory(dir);
    std::filesystem::remove_all(staging);
    manifest.state = ManifestState::complete;
    write_manifest(dir, manifest, false);
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "mheta: recording the redistribution of %s complete failed: %s; the data is whole in the new "
                 "distribution, and the next recovery completes the record\n",
                 dir.c_str(), e.what());
  }
}

double slowest(MPI_Comm comm, double seconds) {
  double most = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallreduce(&seconds, &most, 1, MPI_DOUBLE, MPI_MAX, comm, &request);
  wait_sleeping(request);
  return most;
}

}  // namespace

RedistributionStats redistribute(MPI_Comm outer, const std::filesystem::path& dir,
                                 const std::vector<RowShape>& variables, const model::GenBlock& from,
                                 const model::GenBlock& to, const RedistributionOptions& options) {
  RedistributionStats stats;
  if (from == to) return stats;
  // Our messages must never match the program's.
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Request duplicated = MPI_REQUEST_NULL;
  MPI_Comm_idup(outer, &comm, &duplicated);
  wait_sleeping(duplicated);
  struct FreeComm {
    MPI_Comm& c;
    ~FreeComm() { MPI_Comm_free(&c); }
  } free_comm{comm};
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (from.ranks() != size || to.ranks() != size || from.total_rows() != to.total_rows()) {
    throw RedistributionError("the distributions must both have " + std::to_string(size) +
                              " ranks and the same rows (from: " + std::to_string(from.ranks()) + " ranks, " +
                              std::to_string(from.total_rows()) + " rows; to: " + std::to_string(to.ranks()) +
                              " ranks, " + std::to_string(to.total_rows()) + " rows)");
  }
  // A misspelt MHETA_REDISTRIBUTE_KILL fails here, on every rank alike,
  // rather than at its point on some ranks only.
  fault_point("", rank);
  // The space of the blocks an earlier redistribution replaced is free.
  wait_for_background_release();
  const double start = MPI_Wtime();
  const std::filesystem::path staging = staging_dir(dir);
  const Manifest manifest{ManifestState::prepared, from, to, variables};

  // 1. Prepared: from here until the commit, a restart discards the staging directory.
  FirstError error;
  if (rank == 0) {
    error.attempt([&] {
      if (auto existing = read_manifest(dir); existing && existing->state != ManifestState::complete) {
        throw RedistributionError(manifest_path(dir).string() +
                                  ": a redistribution is in progress or was interrupted; recover first");
      }
      check_free_space(dir, variables, to);
      fault_point("after-check", rank);
      // No directory fsync: should a crash lose this record, the manifest
      // found is the previous one (complete, or none), and recovery
      // discards the staging directory all the same. The commit's record
      // is made durable with its directory.
      write_manifest(dir, manifest, false);
    });
  }
  if (std::string failure = agree(comm, error); !failure.empty()) throw RedistributionError(failure);

  // 2. New blocks beside the old ones: every file created before any row
  // is written, so a disk that fills up fails a data write (cleanly, with
  // an error code) rather than HDF5's metadata.
  std::vector<std::optional<MappedRows>> old_rows(variables.size());
  std::vector<std::optional<LocalArray>> new_blocks(variables.size());
  std::vector<int> writeback_fds(variables.size(), -1);
  error.attempt([&] {
    std::filesystem::create_directories(staging);
    for (std::size_t v = 0; v < variables.size(); ++v) {
      old_rows[v].emplace(LocalArray::open(dir, variables[v], from, rank));
      new_blocks[v].emplace(LocalArray::create(staging, variables[v], to, rank));
      writeback_fds[v] = ::open(new_blocks[v]->path().c_str(), O_RDONLY);
    }
    apply_file_size_limit();
  });
  std::vector<std::vector<Piece>> written(variables.size());
  {
    std::int64_t bytes_sent = 0;
    for (std::size_t v = 0; v < variables.size(); ++v) {
      const RowShape& shape = variables[v];
      const std::int64_t piece_rows = std::max<std::int64_t>(1, options.piece_bytes / shape.bytes_per_row());
      VariableExchange exchange(comm, rank, static_cast<int>(v), shape.bytes_per_row(), piece_rows, error);
      // A rank whose blocks could not be opened still sends and receives
      // (into nowhere), so the others finish and learn of the failure.
      written[v] = exchange.run(old_rows[v] ? &*old_rows[v] : nullptr, new_blocks[v] ? &*new_blocks[v] : nullptr,
                                writeback_fds[v], from, to, bytes_sent, stats.pieces);
    }
    std::array<std::int64_t, 2> counts{bytes_sent, stats.pieces};
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Iallreduce(MPI_IN_PLACE, counts.data(), 2, MPI_INT64_T, MPI_SUM, comm, &request);
    wait_sleeping(request);
    bytes_sent = counts[0];
    stats.pieces = counts[1];
    stats.bytes_moved = bytes_sent;
  }
  if (!variables.empty() && new_blocks[0]) {
    const LocalArray& first = *new_blocks[0];
    error.attempt(
        [&] { corrupt_point(rank, first.path(), first.data_offset(), first.local_rows() * first.bytes_per_row()); });
  }
  old_rows.clear();
  new_blocks.clear();
  for (int fd : writeback_fds) {
    if (fd >= 0) ::close(fd);
  }
  fault_point("after-exchange", rank);
  const double exchanged = MPI_Wtime();

  // 3. Synced, reopened (row counts and metadata), read back (checksums).
  for (std::size_t v = 0; v < variables.size(); ++v) {
    const RowShape& shape = variables[v];
    error.attempt([&] {
      sync_file(local_array_path(staging, shape.variable, rank));
      const LocalArray block = LocalArray::open(staging, shape, to, rank);
      verify(block, written[v], shape.bytes_per_row());
    });
  }
  fault_point("before-commit", rank);

  // 4. All verified, or all roll back. Every rank's new blocks are in the
  // one staging directory: one fsync of it makes them all durable before
  // the commit.
  std::string failure = agree(comm, error);
  if (failure.empty() && rank == 0) {
    error.attempt([&] {
      sync_directory(staging);
      Manifest committed = manifest;
      committed.state = ManifestState::committed;
      write_manifest(dir, committed);
    });
  }
  if (failure.empty()) failure = agree(comm, error);
  if (!failure.empty()) {
    if (rank == 0) {
      try {
        recover_data_dir(dir);
      } catch (const std::exception& e) {
        failure += std::string("; rolling back failed too: ") + e.what();
      }
    }
    MPI_Barrier(comm);
    throw RedistributionError(failure + " (rolled back: the data is unchanged, in its old distribution)");
  }
  stats.exchange_s = slowest(comm, exchanged - start);
  stats.verify_s = slowest(comm, MPI_Wtime() - exchanged);
  const double verified = MPI_Wtime();

  // 5. Committed: switch every block. Failing here leaves the commit
  // standing; recover() finishes the switch.
  fault_point("after-commit", rank);
  BackgroundRelease old_files;  // freeing their space is not the switch's business
  error.attempt([&] {
    for (std::size_t v = 0; v < variables.size(); ++v) {
      const std::string& name = variables[v].variable;
      old_files.hold(local_array_path(dir, name, rank));
      std::filesystem::rename(local_array_path(staging, name, rank), local_array_path(dir, name, rank));
      if (v == 0) fault_point("mid-switch", rank);
    }
  });
  if (std::string problem = agree(comm, error); !problem.empty()) {
    old_files.release();
    throw RedistributionError(problem + " (committed: run recovery to finish the switch)");
  }
  // 6. Complete, in the background on rank 0 while the program goes on: the
  // data is whole in the new distribution from the commit on, whatever
  // happens to this step (a manifest left `committed` is completed by the
  // next recovery, and the next redistribution waits for this one first).
  if (rank == 0) {
    const std::function<void()> complete = [dir, staging, manifest] { complete_in_background(dir, staging, manifest); };
    try {
      old_files.release(complete);
    } catch (const std::system_error&) {
      complete();  // no thread to be had
    }
  } else {
    old_files.release();
  }
  for (const RowShape& shape : variables) stats.bytes_written += to.total_rows() * shape.bytes_per_row();
  stats.switch_s = slowest(comm, MPI_Wtime() - verified);
  stats.total_s = slowest(comm, MPI_Wtime() - start);
  return stats;
}

}  // namespace mheta::io
