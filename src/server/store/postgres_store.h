// PostgreSQL store (libpq): the SQLite store's schema and behaviour on a PostgreSQL database,
// created and upgraded by numbered migrations recorded in hisha_schema_version. Commits wait
// for the WAL flush (synchronous_commit=on), so an acknowledged move survives a crash.
#pragma once

#include <memory>
#include <string>

#include "server/store/store.h"

namespace hisha::server::store {

/// Connects to `url` (a libpq URI: postgresql://user@host:port/db?host=/socket/dir ...) and
/// migrates the schema; null with `error` set when either fails.
std::unique_ptr<Store> open_postgres(const std::string& url, std::string& error);

}  // namespace hisha::server::store
