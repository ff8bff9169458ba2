// The CSA protocol as a state machine over the service (no sockets): a winning %KACHI. The
// game starts from a position where Black may declare (27-point rule), entered through the
// reconnect path: both players are away from a running CSA game, log in again, get the
// Game_Summary of that position, AGREE and play.
#include <gtest/gtest.h>

#include "server/proto/csa_shell.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;

namespace {

// Black: king 5b, ten pieces in the zone (R B G G S S on rank a, N N L L on rank c) worth
// 18 points, ten pawns in hand: 28 points, not in check.
constexpr const char* DECLARABLE = "RBGGSS3/4K4/NNLL5/9/9/9/9/9/4k4 b 10P2g2s2n2l8p 1";

struct Shell {
    std::string out;
    std::shared_ptr<proto::CsaShell> shell;
    explicit Shell(service::Service& svc) {
        shell = std::make_shared<proto::CsaShell>(
            svc, [this](std::string s) { out += s; }, [] {});
    }
    std::string take() { return std::exchange(out, {}); }
};

}  // namespace

TEST(CsaShell, WinningKachiEndsTheGameWithJishogi) {
    Fixture f("csa_kachi");
    f.csa_grace_ms = 60000;
    f.reopen();
    f.add_users({"alice", "bob"});
    GameRow row;
    row.black = "alice";
    row.white = "bob";
    row.start_sfen = DECLARABLE;
    row.tc.kind = service::TimeKind::SuddenDeath;
    row.tc.main_ms = 600000;
    row.tc.csa_seconds = true;
    row.remaining[0] = row.remaining[1] = 600000;
    row.turn_started = row.created = row.updated = f.env.t;
    row.status = GameStatus::Active;
    row.origin = "csa";
    row.csa_game_name = "kachi-600-0";
    ASSERT_TRUE(f.store->insert_game(row)) << f.store->last_error();
    f.reopen();
    f.svc->csa_away("alice", row.id);
    f.svc->csa_away("bob", row.id);
    ASSERT_TRUE(f.svc->game(row.id)->active());

    Shell a(*f.svc), b(*f.svc);
    a.shell->on_line("LOGIN alice secret");
    b.shell->on_line("LOGIN bob secret");
    std::string summary = a.take();
    EXPECT_NE(summary.find("LOGIN:alice OK"), std::string::npos) << summary;
    EXPECT_NE(summary.find("Your_Turn:+"), std::string::npos);
    EXPECT_NE(summary.find("P1+HI+KA+KI+KI+GI+GI *  *  * \n"), std::string::npos) << summary;
    EXPECT_NE(summary.find("P+00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU\n"), std::string::npos) << summary;
    a.shell->on_line("AGREE");
    b.shell->on_line("AGREE");
    EXPECT_NE(a.take().find("START:hisha-"), std::string::npos);
    b.take();
    a.shell->on_line("%KACHI");
    EXPECT_EQ(a.take(), "%KACHI\n#JISHOGI\n#WIN\n");
    EXPECT_EQ(b.take(), "%KACHI\n#JISHOGI\n#LOSE\n");
    const service::LiveGame* g = f.svc->game(row.id);
    EXPECT_TRUE(g->finished());
    EXPECT_EQ(g->row.winner, "black");
    EXPECT_EQ(g->row.reason, "declaration");
}
