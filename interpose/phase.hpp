#pragma once
// Where this rank is in the capture.
namespace mheta::interpose {

enum class Phase {
  waiting,    // before the captured iteration: following files, requests, the call sequence
  capturing,  // inside it
  done,       // after it (or never): the wrappers only serve the services left, if any
};

}  // namespace mheta::interpose
