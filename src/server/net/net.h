// Namespace aliases for Asio (Beast's net.hpp): nothing else.
#pragma once

#include <boost/asio.hpp>

namespace hisha::server::net {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
}  // namespace hisha::server::net
