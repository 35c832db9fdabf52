#pragma once
// The table of the runtime's services: which exist, in the order the core
// calls them, and which settings switch each on.
#include <memory>
#include <string_view>
#include <vector>

#include "interpose/service.hpp"
#include "interpose/settings.hpp"

namespace mheta::interpose {

// The names of the services `settings` switch on, in table order.
std::vector<std::string_view> service_names(const Settings& settings);
// The services themselves.
std::vector<std::unique_ptr<Service>> make_services(const Settings& settings);

}  // namespace mheta::interpose
