// Store behaviour checked through the service, shared by the SQLite tests (service_test.cpp)
// and the PostgreSQL tests (postgres_test.cpp): each takes a fixture over a fresh store.
#pragma once

#include "test_util.h"

namespace hisha::server::test {

/// A correspondence game with an undo and a challenge comes back after a reopen.
void check_games_survive_a_restart(Fixture& f);
/// Group commit: a batch is invisible to a second reader until commit(), then all there.
void check_group_commit(Fixture& f);
/// Administrators, bans (of accounts and addresses), kicks, announcements, aborted and
/// adjudicated games, password resets, tokens revoked, and the audit log across a restart.
void check_administration(Fixture& f);

}  // namespace hisha::server::test
