// A program that waits until deadlines it computed from its clock, with the
// calls that take one (vclock_check.py's `deadlines`). Rank 0 first puts
// its clock 0.2 s behind the machine's (a sleep, which an MPI call then
// drops: docs/emulation.md, "Sleeps and yields"), so that a deadline left
// untranslated lies in the machine's past; then each wait, for 50 ms, that
// nothing ends earlier:
//   cond   pthread_cond_timedwait, a CLOCK_REALTIME deadline
//   sem    sem_timedwait, a CLOCK_REALTIME deadline
//   cv     std::condition_variable::wait_for (pthread_cond_clockwait on the
//          steady clock)
//   lock   std::timed_mutex::try_lock_for, the mutex held by another thread
//          (pthread_mutex_clocklock)
// For each it prints <wait>_machine_s and <wait>_program_s (the time it
// took on the machine's clock and on the one its deadline was read from)
// and <wait>_timedout (1 when it ended at its deadline).
//   deadline_waits
#include <mpi.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace {

constexpr long kWaitNs = 50000000;

double seconds_of(const timespec& t) { return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec); }

// The machine's time: the system call, which no library stands between.
double machine_s() {
  timespec t{};
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
  return seconds_of(t);
}

double clock_s(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return seconds_of(t);
}

timespec realtime_deadline() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_nsec += kWaitNs;
  if (t.tv_nsec >= 1000000000) {
    t.tv_nsec -= 1000000000;
    ++t.tv_sec;
  }
  return t;
}

// Times `wait` (which returns whether it timed out) on the machine's clock
// and on `clock`, and prints both.
template <typename Wait>
void timed(const char* name, clockid_t clock, Wait wait) {
  const double machine_start = machine_s(), program_start = clock_s(clock);
  const bool timedout = wait();
  std::printf("%s_machine_s=%.9f %s_program_s=%.9f %s_timedout=%d\n", name, machine_s() - machine_start, name,
              clock_s(clock) - program_start, name, timedout ? 1 : 0);
}

bool cond_wait() {
  pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  const timespec deadline = realtime_deadline();
  pthread_mutex_lock(&mutex);
  int rc = 0;
  while ((rc = pthread_cond_timedwait(&cond, &mutex, &deadline)) == 0) {
  }
  pthread_mutex_unlock(&mutex);
  return rc == ETIMEDOUT;
}

bool sem_wait_until() {
  sem_t semaphore;
  sem_init(&semaphore, 0, 0);
  const timespec deadline = realtime_deadline();
  int rc = 0;
  while ((rc = sem_timedwait(&semaphore, &deadline)) != 0 && errno == EINTR) {
  }
  const bool timedout = rc != 0 && errno == ETIMEDOUT;
  sem_destroy(&semaphore);
  return timedout;
}

bool cv_wait_for() {
  std::mutex mutex;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mutex);
  return !cv.wait_for(lock, std::chrono::nanoseconds(kWaitNs), [] { return false; });
}

bool timed_lock() {
  std::timed_mutex held;
  std::mutex mutex;
  std::condition_variable changed;
  bool locked = false, done = false;
  std::thread holder([&] {
    held.lock();
    std::unique_lock<std::mutex> lock(mutex);
    locked = true;
    changed.notify_all();
    changed.wait(lock, [&] { return done; });
    held.unlock();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return locked; });
  }
  const bool timedout = !held.try_lock_for(std::chrono::nanoseconds(kWaitNs));
  {
    const std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  changed.notify_all();
  holder.join();
  return timedout;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) usleep(200000);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    timed("cond", CLOCK_REALTIME, cond_wait);
    timed("sem", CLOCK_REALTIME, sem_wait_until);
    timed("cv", CLOCK_MONOTONIC, cv_wait_for);
    timed("lock", CLOCK_MONOTONIC, timed_lock);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
