// backup(): a consistent copy of a server's SQLite database, taken while the server runs
// (`hisha-server backup --to FILE`). SQLite's online backup API copies every page under one
// read transaction: in WAL mode the server's writes go on meanwhile, and the copy holds exactly
// the transactions committed when it began.
#pragma once

#include <string>

namespace hisha::server::store {

/// Copies the database of `url` (sqlite:PATH, with or without ?options, or a bare path) to the
/// new file `to` (which must not exist), as a self-contained database (rollback journal, no
/// -wal file) that passes an integrity check. False with `error` otherwise, and for a
/// PostgreSQL URL (pg_dump does that). `summary`: what was copied, for the operator.
bool backup(const std::string& url, const std::string& to, std::string& error, std::string& summary);

}  // namespace hisha::server::store
