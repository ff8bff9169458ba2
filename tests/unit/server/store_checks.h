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
/// A scheduled tournament: its waiting players paired by rating at the round (not before), the
/// games kept with their tournament, rated, listed with the rating list's last game, and the
/// next round avoiding the pairs of the last (tournament_test.cpp).
void check_tournament_rounds(Fixture& f);

}  // namespace hisha::server::test
