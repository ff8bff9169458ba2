// The finished games of a hisha-server database read without changing it (`hisha puzzles
// --database`): a read-only SQLite connection or a read-only PostgreSQL session, which never runs
// a migration; a file or database that is not a hisha-server database is refused, saying why.
#pragma once

#include <string>
#include <vector>

#include "server/store/records.h"

namespace hisha::server::store {

/// The finished games of the database `url` (sqlite:PATH or a bare PATH, postgresql://...), by
/// id, each with its players, start and move rows (the other fields left as they are). False with
/// `error` when it cannot be read: a missing file, not a hisha-server database, a schema newer
/// than this program's, a connection refused.
bool read_finished_games(const std::string& url, std::vector<GameRow>& games, std::string& error);

}  // namespace hisha::server::store
