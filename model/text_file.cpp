#include "model/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "model/format_error.hpp"

namespace mheta::model {

namespace {

// Closes a file descriptor on every path out of a function.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now, reporting whether the close (the last chance for a deferred
  // write error) succeeded.
  bool close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

 private:
  int fd_;
};

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string describe_errno(int error) { return std::strerror(error); }

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why) {
  throw OutputError(path.string() + ": " + why);
}

// How long a FIFO may take to get a reader (`mheta search -o fifo & cat fifo`
// starts both at once): long enough for a reader being started, short
// enough that a FIFO nobody reads is an error, not a hang.
constexpr int kFifoReaderWaitMs = 2000;

// A device or FIFO that already exists: written where it is.
void write_in_place(const std::filesystem::path& path, std::string_view text, bool fifo) {
  // O_NONBLOCK on a FIFO fails with ENXIO instead of waiting forever for a
  // reader that may never come; once open, writes block as usual.
  const int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0);
  int opened = ::open(path.c_str(), flags);
  for (int waited = 0; opened < 0 && fifo && errno == ENXIO && waited < kFifoReaderWaitMs; waited += 10) {
    ::usleep(10000);
    opened = ::open(path.c_str(), flags);
  }
  FileDescriptor fd(opened);
  if (fd.get() < 0) {
    if (fifo && errno == ENXIO) refuse(path, "is a FIFO that nobody reads; refusing to wait for a reader");
    refuse(path, "cannot open: " + describe_errno(errno));
  }
  if (fifo) ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  if (!write_all(fd.get(), text)) refuse(path, "cannot write: " + describe_errno(errno));
  if (!fd.close()) refuse(path, "cannot write: " + describe_errno(errno));
}

void write_aside_and_rename(const std::filesystem::path& path, std::string_view text) {
  const std::filesystem::path temporary =
      path.string() + ".tmp." + std::to_string(static_cast<long>(::getpid()));
  auto fail = [&](const char* what) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    refuse(path, std::string(what) + ": " + describe_errno(saved));
  };
  FileDescriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, 0666));
  if (fd.get() < 0) {
    const int saved = errno;
    refuse(path, "cannot create: " + describe_errno(saved));
  }
  if (!write_all(fd.get(), text) || ::fsync(fd.get()) != 0) fail("cannot write");
  if (!fd.close()) fail("cannot write");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot replace");
}

}  // namespace

std::string read_text_file(const std::filesystem::path& path, std::uintmax_t limit) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) throw FormatError(path.string(), "", "cannot open: " + describe_errno(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw FormatError(path.string(), "", "cannot read: " + describe_errno(errno));
  if (S_ISDIR(info.st_mode)) throw FormatError(path.string(), "", "is a directory, expected a file");
  if (!S_ISREG(info.st_mode)) {
    throw FormatError(path.string(), "", "is not a regular file (a device, FIFO or socket); expected a file");
  }
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  if (size > limit) {
    throw FormatError(path.string(), "",
                      "is " + std::to_string(size) + " bytes, more than the " + std::to_string(limit) +
                          " an input may have");
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  std::size_t done = 0;
  // Reads at most the size seen by fstat (plus one byte to notice growth).
  for (;;) {
    if (done == text.size()) {
      if (text.size() >= limit) break;
      text.resize(text.size() + 1);
    }
    const ssize_t n = ::read(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FormatError(path.string(), "", "read failed: " + describe_errno(errno));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

void write_text_file_atomically(const std::filesystem::path& path, std::string_view text) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT) refuse(path, "cannot inspect: " + describe_errno(errno));
    write_aside_and_rename(path, text);
    return;
  }
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) {
    refuse(path, S_ISLNK(link.st_mode) ? "is a symbolic link to nothing (" + describe_errno(errno) + ")"
                                      : "cannot inspect: " + describe_errno(errno));
  }
  if (S_ISREG(target.st_mode)) {
    std::error_code error;
    // The file a link points to is replaced, never the link itself.
    const std::filesystem::path file = S_ISLNK(link.st_mode) ? std::filesystem::canonical(path, error) : path;
    if (error) refuse(path, "cannot follow the symbolic link: " + error.message());
    write_aside_and_rename(file, text);
    return;
  }
  if (S_ISCHR(target.st_mode)) return write_in_place(path, text, false);
  if (S_ISFIFO(target.st_mode)) return write_in_place(path, text, true);
  if (S_ISDIR(target.st_mode)) refuse(path, "is a directory");
  refuse(path, "is not a regular file, a character device or a FIFO; refusing to replace it");
}

}  // namespace mheta::model
