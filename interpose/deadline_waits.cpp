// The program's waits until an absolute deadline other than
// clock_nanosleep's (sleep_calls.cpp): condition variables, timed locks,
// semaphores and joins, passed on to the C library's. The deadline was
// computed from the program's clock, which under the virtual clock is not
// the machine's, so it is translated (program_clocks.hpp, ProgramDeadline):
// the wait lasts what the program asked for, and one that reached its
// deadline leaves the program's clock there. C++ reaches them from
// std::condition_variable::wait_for/wait_until (pthread_cond_clockwait on
// the steady clock, pthread_cond_timedwait on the system clock) and
// std::timed_mutex::try_lock_for. The processor time inside is no compute
// (runtime.hpp, NotCompute).
//
// pthread_cond_timedwait and sem_timedwait take no clock: their deadline is
// read as CLOCK_REALTIME's, a condition variable's attribute notwithstanding.
// The translation is the same for every clock the program's clocks follow
// (each is anchored where virtual time started and goes on by it); only
// what a wait that reaches a CLOCK_MONOTONIC deadline owes the virtual
// clock is lost (docs/emulation.md).
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include <cerrno>

#include "interpose/early_entry.hpp"
#include "interpose/export.hpp"
#include "interpose/next_definition.hpp"
#include "interpose/program_clocks.hpp"
#include "interpose/runtime.hpp"

// name, parameters, the arguments passed on (`machine` is the translated
// deadline), the deadline's clock, the deadline, what a missing C library
// definition returns, the exception specification of the C library's
// declaration.
#define MHETA_DEADLINE_WAITS(X)                                                                                        \
  X(pthread_cond_timedwait, (pthread_cond_t * cond, pthread_mutex_t * mutex, const timespec* deadline),                \
    (cond, mutex, machine), CLOCK_REALTIME, deadline, ENOSYS, )                                                        \
  X(pthread_cond_clockwait,                                                                                            \
    (pthread_cond_t * cond, pthread_mutex_t * mutex, clockid_t clock, const timespec* deadline),                       \
    (cond, mutex, clock, machine), clock, deadline, ENOSYS, )                                                          \
  X(pthread_mutex_timedlock, (pthread_mutex_t * mutex, const timespec* deadline), (mutex, machine), CLOCK_REALTIME,    \
    deadline, ENOSYS, noexcept)                                                                                        \
  X(pthread_mutex_clocklock, (pthread_mutex_t * mutex, clockid_t clock, const timespec* deadline),                     \
    (mutex, clock, machine), clock, deadline, ENOSYS, noexcept)                                                        \
  X(pthread_rwlock_timedrdlock, (pthread_rwlock_t * lock, const timespec* deadline), (lock, machine), CLOCK_REALTIME,  \
    deadline, ENOSYS, noexcept)                                                                                        \
  X(pthread_rwlock_timedwrlock, (pthread_rwlock_t * lock, const timespec* deadline), (lock, machine), CLOCK_REALTIME,  \
    deadline, ENOSYS, noexcept)                                                                                        \
  X(pthread_rwlock_clockrdlock, (pthread_rwlock_t * lock, clockid_t clock, const timespec* deadline),                  \
    (lock, clock, machine), clock, deadline, ENOSYS, noexcept)                                                         \
  X(pthread_rwlock_clockwrlock, (pthread_rwlock_t * lock, clockid_t clock, const timespec* deadline),                  \
    (lock, clock, machine), clock, deadline, ENOSYS, noexcept)                                                         \
  X(pthread_timedjoin_np, (pthread_t thread, void** result, const timespec* deadline), (thread, result, machine),      \
    CLOCK_REALTIME, deadline, ENOSYS, )                                                                                \
  X(pthread_clockjoin_np, (pthread_t thread, void** result, clockid_t clock, const timespec* deadline),                \
    (thread, result, clock, machine), clock, deadline, ENOSYS, )                                                       \
  X(sem_timedwait, (sem_t * semaphore, const timespec* deadline), (semaphore, machine), CLOCK_REALTIME, deadline,      \
    (errno = ENOSYS, -1), )                                                                                            \
  X(sem_clockwait, (sem_t * semaphore, clockid_t clock, const timespec* deadline), (semaphore, clock, machine), clock, \
    deadline, (errno = ENOSYS, -1), )

#define MHETA_DEFINE_DEADLINE_WAIT(name, parameters, arguments, clock_of_deadline, deadline_of_wait, missing, spec) \
  extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int name parameters spec {                                              \
    mheta_early_start();                                                                                            \
    using Next = int(*) parameters;                                                                                 \
    static const Next next = mheta::interpose::next_definition<Next>(#name);                                        \
    const mheta::interpose::NotCompute not_compute;                                                                 \
    const mheta::interpose::ProgramDeadline wait(clock_of_deadline, deadline_of_wait);                              \
    const timespec* machine = wait.machine();                                                                       \
    const int rc = next != nullptr ? next arguments : missing;                                                      \
    wait.ended();                                                                                                   \
    return rc;                                                                                                      \
  }

MHETA_DEADLINE_WAITS(MHETA_DEFINE_DEADLINE_WAIT)
