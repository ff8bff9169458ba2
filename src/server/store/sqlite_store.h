// SQLite store: WAL journal, synchronous=FULL (a committed move survives a crash and a power
// cut), schema created and upgraded by numbered migrations recorded in schema_version.
#pragma once

#include <memory>

#include "server/store/store.h"

namespace hisha::server::store {

/// Opens (creating it if needed) the database at `path` (":memory:" for a private one);
/// `sync` is SQLite's synchronous level, "FULL" (default) or "NORMAL"; the write-ahead log is
/// brought back to its start whenever it has grown to `wal_mb` MB.
std::unique_ptr<Store> open_sqlite(const std::string& path, std::string& error, const std::string& sync = "FULL",
                                   int wal_mb = 64);

}  // namespace hisha::server::store
