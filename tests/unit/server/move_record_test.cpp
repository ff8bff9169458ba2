// The typed move record (issue 22): the codec between a stored row's text and a MoveRecord
// (every stored form, as existing databases hold them), the one replay, and the Move event's
// facts that every protocol formats from, made once and shared by the listeners.
#include <gtest/gtest.h>

#include "core/position.h"
#include "server/proto/json_api.h"
#include "server/service/move_record.h"
#include "test_util.h"

using namespace hisha;
using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;
using hisha::server::test::Recorder;

namespace {

MoveRow row(int ply, std::string text) {
    MoveRow m;
    m.ply = ply;
    m.text = std::move(text);
    m.spent_ms = 1000 + ply;
    m.at = 5000 + ply;
    return m;
}

}  // namespace

TEST(MoveRecord, EveryStoredFormDecodesAndEncodesBackTheSame) {
    core::Position start;
    auto board = decode_row(row(0, "7g7f"), start);
    ASSERT_TRUE(board.has_value()) << board.error();
    EXPECT_EQ(board->kind, MoveKind::Board);
    EXPECT_EQ(core::to_usi(board->move), "7g7f");
    EXPECT_EQ(board->mover, core::BLACK);
    EXPECT_EQ(board->spent_ms, 1000);
    EXPECT_EQ(board->at, 5000);
    EXPECT_EQ(row_text(*board), "7g7f");

    auto handicap = decode_row(row(0, "HANDICAP:L@1a,R@8b"), start);
    ASSERT_TRUE(handicap.has_value()) << handicap.error();
    EXPECT_EQ(handicap->kind, MoveKind::Handicap);
    EXPECT_EQ(row_text(*handicap), "HANDICAP:L@1a,R@8b");
    EXPECT_EQ(handicap->start_sfen, "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");

    for (const char* t : {"RESIGN:B", "RESIGN:W"}) {
        auto r = decode_row(row(3, t), start);
        ASSERT_TRUE(r.has_value());
        EXPECT_EQ(r->kind, MoveKind::Resign);
        EXPECT_EQ(r->mover, t[7] == 'B' ? core::BLACK : core::WHITE);
        EXPECT_EQ(row_text(*r), t);
    }
    auto declare = decode_row(row(5, "DECLARE"), start);
    ASSERT_TRUE(declare.has_value());
    EXPECT_EQ(declare->kind, MoveKind::Declare);
    EXPECT_EQ(row_text(*declare), "DECLARE");
    EXPECT_EQ(to_row(*declare).text, "DECLARE");
    EXPECT_EQ(to_row(*declare).ply, 5);

    EXPECT_FALSE(decode_row(row(0, "7g7e"), start).has_value());           // not a legal move
    EXPECT_FALSE(decode_row(row(0, "HANDICAP:K@5a"), start).has_value());  // not a handicap piece
}

TEST(MoveRecord, ReplaySpellsEveryEntryOnceAndStopsAtABadOne) {
    GameRow g;
    g.start_sfen = std::string(core::START_SFEN);
    for (const char* t : {"7g7f", "3c3d", "8h2b+", "3a2b", "RESIGN:B"})
        g.moves.push_back(row(int(g.moves.size()), t));
    core::Game game;
    Replayed r = replay(g, game);
    EXPECT_TRUE(r.error.empty()) << r.error;
    ASSERT_EQ(r.log.size(), 5u);
    EXPECT_EQ(r.log[0].western, "P-7f");
    EXPECT_EQ(r.log[0].csa, "+7776FU");
    EXPECT_FALSE(r.log[0].ja.empty());
    EXPECT_EQ(r.log[2].western, "Bx2b+");
    EXPECT_EQ(r.log[3].mover, core::WHITE);
    EXPECT_EQ(r.log[4].kind, MoveKind::Resign);
    EXPECT_EQ(r.log[4].csa, "%TORYO");
    EXPECT_EQ(r.log[4].western, "RESIGN");
    EXPECT_TRUE(game.over());

    g.moves[2].text = "8h2c";  // not a legal move there
    core::Game again;
    Replayed bad = replay(g, again);
    EXPECT_EQ(bad.log.size(), 2u);
    EXPECT_NE(bad.error.find("ply 2"), std::string::npos) << bad.error;
}

TEST(MoveRecord, AGameOfOldRowsLoadsWithItsLogTyped) {
    // Rows written as every server version wrote them: a handicap, board moves, a declaration.
    Fixture f("typed_log");
    f.add_users({"alice", "bob"});
    auto id = f.svc->create_game("alice", "bob", TimeControl{}, "text", "L@1a");
    ASSERT_TRUE(id.has_value()) << id.error();
    ASSERT_TRUE(f.svc->play("bob", *id, "3c3d").has_value());
    ASSERT_TRUE(f.svc->play("alice", *id, "7g7f").has_value());
    f.reopen();  // read back from the database and replayed
    const LiveGame* g = f.svc->game(*id);
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->log.size(), 3u);
    ASSERT_EQ(g->row.moves.size(), 3u);
    EXPECT_EQ(g->log[0].kind, MoveKind::Handicap);
    EXPECT_EQ(g->row.moves[0].text, "HANDICAP:L@1a");
    EXPECT_EQ(g->log[1].mover, core::WHITE);
    EXPECT_EQ(g->log[1].text, "3c3d");
    EXPECT_EQ(g->log[2].western, "P-7f");
    for (std::size_t i = 0; i < g->log.size(); ++i)
        EXPECT_EQ(g->row.moves[i].text, row_text(g->log[i]));
}

TEST(MoveRecord, TheMoveEventCarriesItsFactsOnceForEveryListener) {
    Fixture f("move_facts");
    f.add_users({"alice", "bob", "carol", "dave"});
    auto id = f.svc->create_game("alice", "bob", TimeControl{}, "web");
    ASSERT_TRUE(id.has_value());
    auto b = std::make_shared<Recorder>(), c = std::make_shared<Recorder>(), d = std::make_shared<Recorder>();
    f.svc->connect("bob", b, "web");
    f.svc->connect("carol", c, "web");
    f.svc->connect("dave", d, "text");
    f.svc->watch("carol", *id, true);
    f.svc->watch("dave", *id, true);
    ASSERT_TRUE(f.svc->play("alice", *id, "7g7f").has_value());
    ASSERT_TRUE(f.svc->play("bob", *id, "3c3d").has_value());
    ASSERT_TRUE(f.svc->play("alice", *id, "8h2b+").has_value());
    const Event* eb = nullptr;
    for (auto& e : b->events)
        if (e.kind == EventKind::Move && e.ply == 2)
            eb = &e;
    ASSERT_NE(eb, nullptr);
    ASSERT_TRUE(eb->facts);
    EXPECT_EQ(eb->facts->record.western, "Bx2b+");
    EXPECT_EQ(eb->facts->record.text, "8h2b+");
    EXPECT_TRUE(eb->facts->latest);
    EXPECT_EQ(eb->facts->sfen, f.svc->game(*id)->game.position().sfen());
    EXPECT_FALSE(eb->facts->check);
    // The same facts (one object) reached every listener.
    for (auto* r : {c.get(), d.get()}) {
        ASSERT_EQ(r->count(EventKind::Move), 3);
        EXPECT_EQ(r->events.back().facts, eb->facts);
    }
    // The JSON message is made from them: the same text for every listener, with the position.
    proto::JsonApi api(*f.svc);
    std::string text = api.event_text(*eb);
    EXPECT_EQ(api.event_text(c->events.back()), text);
    auto j = nlohmann::json::parse(text);
    EXPECT_EQ(j["type"], "move");
    EXPECT_EQ(j["usi"], "8h2b+");
    EXPECT_EQ(j["western"], "Bx2b+");
    EXPECT_EQ(j["ply"], 3);
    EXPECT_EQ(j["sfen"], eb->facts->sfen);
    EXPECT_FALSE(j["ja"].get<std::string>().empty());
    EXPECT_FALSE(j["legal"].empty());
}

TEST(MoveRecord, AMoveAlreadyReadIsPlayedWithoutText) {
    Fixture f("play_move");
    f.add_users({"alice", "bob"});
    auto id = f.svc->create_game("alice", "bob", TimeControl{}, "text");
    ASSERT_TRUE(id.has_value());
    auto checked = f.svc->check_move("alice", *id, "P-7f");
    ASSERT_TRUE(checked.has_value()) << checked.error();
    EXPECT_TRUE(checked->promotion_open);  // neither + nor = (a pawn on 7f cannot promote anyway)
    auto p = f.svc->play("alice", *id, checked->move);
    ASSERT_TRUE(p.has_value()) << p.error();
    EXPECT_EQ(p->usi, "7g7f");
    EXPECT_EQ(p->western, "P-7f");
    // Not Black's turn any more: the same move is refused, and so is none at all.
    EXPECT_FALSE(f.svc->play("alice", *id, checked->move).has_value());
    EXPECT_FALSE(f.svc->play("bob", *id, core::Move::none()).has_value());
}
