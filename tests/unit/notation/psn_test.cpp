// PSN and xshogi / GNU Shogi game files: the shared Western records read and replayed to the
// end, tags, comments, results, golden writer output, every error path with line and column,
// and round trips read -> write -> read in both written forms.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "core/movegen.h"
#include "notation/psn.h"
#include "notation/usi.h"
#include "test_files.h"

using namespace hisha;
using namespace hisha::notation;

namespace {
using hisha::testing::slurp;

std::string shared(const std::string& name) { return std::string(HISHA_TESTDATA_DIR) + "/records/western/" + name; }
std::string local(const std::string& name) { return std::string(HISHA_TEST_DATA_LOCAL) + "/notation/psn/" + name; }

GameRecord must_read(const std::string& text) {
    auto r = read_psn(text);
    EXPECT_TRUE(r) << r.error().to_string() << "\n" << text;
    return r ? std::move(*r) : GameRecord{};
}

std::string final_sfen(const GameRecord& rec) {
    auto pos = final_position(rec);
    EXPECT_TRUE(pos) << pos.error().to_string();
    return pos ? (*pos)->sfen() : "";
}

// What both formats keep: moves, result, start and players.
void expect_same_game(const GameRecord& a, const GameRecord& b) {
    EXPECT_EQ(a.main_line(), b.main_line());
    EXPECT_EQ(a.start_sfen, b.start_sfen);
    EXPECT_EQ(a.result.winner, b.result.winner);
    EXPECT_EQ(a.header(key::BLACK), b.header(key::BLACK));
    EXPECT_EQ(a.header(key::WHITE), b.header(key::WHITE));
}

// Everything PSN keeps, comments included.
void expect_same_psn(const GameRecord& a, const GameRecord& b) {
    expect_same_game(a, b);
    EXPECT_EQ(a.result.reason, b.result.reason);
    EXPECT_EQ(a.start_comments, b.start_comments);
    ASSERT_EQ(a.moves.size(), b.moves.size());
    for (std::size_t i = 0; i < a.moves.size(); ++i)
        EXPECT_EQ(a.moves[i].comments, b.moves[i].comments) << "move " << i + 1;
    for (const auto& h : a.headers)
        EXPECT_EQ(b.header(h.key), h.value) << h.key;
}

void expect_error(const std::string& text, core::ParseErrorCode code, int line, int column,
                  const std::string& message) {
    auto r = read_psn(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().code, code) << text << "\n" << r.error().to_string();
    EXPECT_EQ(r.error().line, line) << text << "\n" << r.error().to_string();
    EXPECT_EQ(r.error().column, column) << text << "\n" << r.error().to_string();
    EXPECT_EQ(r.error().message, message) << text;
}

}  // namespace

TEST(Psn, SharedWesternRecordsReplayToTheEnd) {
    struct Case {
        const char* file;
        std::size_t moves;
        const char* final_sfen;
        core::Winner winner;
    };
    // Final positions cross-checked with tsshogi's replay of the same moves.
    const Case cases[] = {
        {"tutorial1.gam", 71, "ln6l/1ks+N+R4/pppp5/4p1p1p/n8/1PP1P1P1P/P2P5/2KG5/LN6L w RB2G3S2Pbg2p 72",
         core::Winner::Black},
        {"tutorial2.gam", 34, "ln3g1nl/1r2g1kb1/2pps2p1/p3p1s1p/1p3pp2/P1PPPP2P/1PBS1SPP1/1R4GK1/LN1G3NL b - 35",
         core::Winner::None},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        GameRecord rec = must_read(slurp(shared(c.file)));
        EXPECT_EQ(rec.moves.size(), c.moves);
        core::Game game;
        auto replayed = replay(rec, game);
        ASSERT_TRUE(replayed) << replayed.error().to_string();
        EXPECT_EQ(game.position().sfen(), c.final_sfen);
        EXPECT_EQ(rec.result.winner, c.winner);
        // Round trips: PSN keeps everything it read; the xshogi file keeps the game.
        GameRecord psn = must_read(write_psn(rec));
        expect_same_psn(rec, psn);
        EXPECT_EQ(write_psn(psn), write_psn(rec));
        GameRecord gam = must_read(write_xshogi_game(rec));
        expect_same_game(rec, gam);
        EXPECT_EQ(write_xshogi_game(gam), write_xshogi_game(rec));
        auto usi = parse_usi_position(write_usi_position(rec));
        ASSERT_TRUE(usi);
        EXPECT_EQ(usi->main_line(), rec.main_line());
    }
    GameRecord t1 = must_read(slurp(shared("tutorial1.gam")));
    EXPECT_EQ(t1.header(key::TITLE), "Shogi Game 1 (amateur game, amateur comment): introductory game.");
    EXPECT_EQ(t1.header(key::BLACK), "Michael Trent (1-dan)");
    EXPECT_EQ(t1.header(key::WHITE), "David Murphy (2-dan)");
    EXPECT_EQ(t1.result.reason, core::EndReason::Resignation);
    GameRecord t2 = must_read(slurp(shared("tutorial2.gam")));
    ASSERT_FALSE(t2.moves[0].comments.empty());
    EXPECT_EQ(t2.moves[0].comments[0], "This opens the bishop's diagonal.");
}

TEST(Psn, WritersMatchGoldenFiles) {
    for (const char* name : {"club_game", "handicap_game"}) {
        SCOPED_TRACE(name);
        GameRecord rec = must_read(slurp(local(std::string(name) + ".txt")));
        EXPECT_EQ(write_psn(rec), slurp(local(std::string(name) + ".psn")));
        EXPECT_EQ(write_xshogi_game(rec), slurp(local(std::string(name) + ".gam")));
        // The golden files read back to the same game.
        expect_same_psn(rec, must_read(slurp(local(std::string(name) + ".psn"))));
        expect_same_game(rec, must_read(slurp(local(std::string(name) + ".gam"))));
    }
}

TEST(Psn, TagsAndCommentsGoToTheirPlaces) {
    GameRecord rec = must_read(slurp(local("club_game.txt")));
    EXPECT_EQ(rec.header(key::TITLE), "A club game");
    EXPECT_EQ(rec.header(key::BLACK), "Alice");
    EXPECT_EQ(rec.header(key::WHITE), "Bob");
    EXPECT_EQ(rec.header(key::EVENT), "Club \"Open\"");
    EXPECT_EQ(rec.header(key::START_TIME), "2024/05/01");
    EXPECT_EQ(rec.header("Annotator"), "Carol");
    EXPECT_EQ(rec.start_comments, std::vector<std::string>{"Before the first move"});
    ASSERT_EQ(rec.moves.size(), 13u);
    EXPECT_EQ(rec.moves[0].comments, std::vector<std::string>{"a common start"});
    EXPECT_EQ(rec.moves[2].comments, std::vector<std::string>{"Static rook."});
    EXPECT_EQ(rec.moves[8].comments, std::vector<std::string>{"Black drops the bishop"});
    EXPECT_EQ(rec.result.winner, core::Winner::Black);
    EXPECT_EQ(rec.result.reason, core::EndReason::Resignation);
    EXPECT_EQ(rec.result.actor, core::WHITE);

    GameRecord h = must_read(slurp(local("handicap_game.txt")));
    ASSERT_TRUE(h.handicap.has_value());
    EXPECT_EQ(*h.handicap, core::Handicap::EightPiece);
    EXPECT_EQ(h.start_sfen, core::handicap_info(core::Handicap::EightPiece).sfen);
    EXPECT_EQ(h.moves.size(), 5u);

    // An SFEN tag, tags in any case, nested parentheses, a comment after the result.
    GameRecord s = must_read("[sfen \"4k4/9/4P4/9/9/9/9/9/4K4 b G 1\"]\n[OPENING \"Tsume\"]\n"
                             "1. G*5b (a (nested) note) Mate { the end }\n");
    EXPECT_EQ(s.start_sfen, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    EXPECT_EQ(s.header(key::OPENING), "Tsume");
    ASSERT_EQ(s.moves.size(), 1u);
    EXPECT_EQ(s.moves[0].comments, (std::vector<std::string>{"a (nested) note", "the end"}));
    EXPECT_EQ(s.result.winner, core::Winner::Black);
    EXPECT_EQ(s.result.reason, core::EndReason::Checkmate);
}

TEST(Psn, EveryHandicapRoundTrips) {
    for (const auto& info : core::all_handicaps()) {
        SCOPED_TRACE(info.id);
        GameRecord rec;
        rec.set_handicap(info.handicap);
        core::Position pos;
        ASSERT_TRUE(pos.set(info.sfen).has_value());
        for (int ply = 0; ply < 6; ++ply) {
            core::MoveList<core::LEGAL, true> moves(pos);
            core::Move m = moves.begin()->move;
            rec.moves.push_back(MoveRecord{m, {}, {}, {}});
            pos.play(m);
        }
        for (const std::string& text : {write_psn(rec), write_xshogi_game(rec)}) {
            GameRecord back = must_read(text);
            EXPECT_EQ(back.start_sfen, rec.start_sfen) << text;
            EXPECT_EQ(back.main_line(), rec.main_line()) << text;
            if (info.handicap != core::Handicap::Even) {
                EXPECT_EQ(back.handicap, info.handicap) << text;
            }
        }
    }
}

TEST(Psn, ResultWords) {
    // The games (or game ends) that give each result.
    struct Case {
        core::Winner winner;
        core::EndReason reason;
        std::vector<std::string> texts;
    };
    using W = core::Winner;
    using R = core::EndReason;
    const std::string repeated = "1. R-3h R-7b 2. R-2h R-8b 3. R-3h R-7b 4. R-2h R-8b 5. R-3h R-7b 6. R-2h R-8b";
    const std::string mate = "[SFEN \"4k4/9/4P4/9/9/9/9/9/4K4 b G 1\"]\n";
    const Case cases[] = {
        {W::Black, R::Resignation, {"1. P-7f Resigns", "[Result \"1-0\"]\n1. P-7f Resigns"}},
        {W::White, R::Resignation, {"1. P-7f P-3d resign"}},
        {W::Black, R::None, {"1. P-7f Black wins", "1. P-7f 1-0"}},
        {W::White, R::None, {"1. P-7f White wins.", "1. P-7f 0-1", "[Result \"0-1\"]\n1. P-7f"}},
        {W::Draw, R::None, {"1. P-7f Draw", "1. P-7f 1/2-1/2"}},
        {W::None, R::None, {"1. P-7f *"}},
        {W::Draw, R::ImpasseCount, {"1. P-7f Jishogi"}},
        {W::Draw, R::Sennichite, {repeated + " Sennichite", repeated + " Draw"}},
        {W::Black, R::Checkmate, {mate + "1. G*5b Black wins", mate + "[Result \"1-0\"]\n1. G*5b"}},
    };
    for (const auto& c : cases)
        for (const std::string& text : c.texts) {
            SCOPED_TRACE(text);
            GameRecord rec = must_read(text);
            EXPECT_EQ(rec.result.winner, c.winner);
            EXPECT_EQ(rec.result.reason, c.reason);
            // What PSN can say about the result survives its own round trip.
            GameRecord back = must_read(write_psn(rec));
            EXPECT_EQ(back.result.winner, rec.result.winner);
            EXPECT_EQ(back.result.reason, rec.result.reason);
        }
}

TEST(Psn, ToleratesWhatRealFilesDo) {
    // CRLF, a BOM, numbers glued to moves, "1. ..." for an empty slot, spaces inside a move,
    // a PGN escape line, GNU coordinate moves mixed with Western ones.
    GameRecord rec = must_read("\xEF\xBB\xBF[Sente \"A\"]\r\n\r\n% escape line\r\n1.P-7f 1... P - 3d\r\n"
                               "2. 8h2b+ 3a2b 3. B'5e\r\n");
    EXPECT_EQ(rec.header(key::BLACK), "A");
    ASSERT_EQ(rec.moves.size(), 5u);
    EXPECT_EQ(core::to_usi(rec.moves[1].move), "3c3d");
    EXPECT_EQ(core::to_usi(rec.moves[4].move), "B*5e");
    // An xshogi game file as xshogi writes it.
    GameRecord x = must_read("# xshogi game file -- Sat Nov 21 14:40:00 2026\n"
                             "# gnushogi@localhost vs. alice@myhost\n\n"
                             "1. 7g7f 3c3d 2. 8h2b+ 3a2b 3. B*4e\nWhite wins\n");
    EXPECT_EQ(x.header(key::TITLE), "xshogi game file -- Sat Nov 21 14:40:00 2026");
    EXPECT_EQ(x.header(key::BLACK), "gnushogi@localhost");
    EXPECT_EQ(x.header(key::WHITE), "alice@myhost");
    EXPECT_EQ(x.moves.size(), 5u);
    EXPECT_EQ(x.result.winner, core::Winner::White);
    EXPECT_EQ(write_xshogi_game(x).rfind("# xshogi game file -- Sat Nov 21 14:40:00 2026\n", 0), 0u);
    // A start set by '#' lines (what write_xshogi_game writes for a handicap or an SFEN).
    GameRecord sf = must_read("# t\n# SFEN: 4k4/9/9/9/9/9/9/9/4K4 w - 1\n\n1. ... 5a5b\n");
    EXPECT_EQ(sf.start_sfen, "4k4/9/9/9/9/9/9/9/4K4 w - 1");
    EXPECT_EQ(sf.moves.size(), 1u);
}

TEST(Psn, SeveralGamesInOneFile) {
    const std::string text = "[Sente \"A\"]\n1. P-7f P-3d\n\n[Sente \"B\"]\n1. P-2f Resigns\n# Third\n1. P-5f\n";
    auto games = read_psn_games(text);
    ASSERT_TRUE(games) << games.error().to_string();
    ASSERT_EQ(games->size(), 3u);
    EXPECT_EQ((*games)[0].header(key::BLACK), "A");
    EXPECT_EQ((*games)[0].moves.size(), 2u);
    EXPECT_EQ((*games)[1].header(key::BLACK), "B");
    EXPECT_EQ((*games)[1].result.reason, core::EndReason::Resignation);
    EXPECT_EQ((*games)[2].header(key::TITLE), "Third");
    auto first = read_psn(text);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->header(key::BLACK), "A");
    // An error in a later game is reported where it is.
    auto bad = read_psn_games(text + "[Sente \"C\"]\n1. P-7e\n");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().line, 9);
    EXPECT_EQ(bad.error().column, 4);
}

TEST(Psn, ErrorsNameLineAndColumn) {
    using C = core::ParseErrorCode;
    expect_error("", C::Empty, 1, 1, "no game in the file");
    expect_error("  \n\n", C::Empty, 1, 1, "no game in the file");
    expect_error("1. P-7f foo", C::BadMove, 1, 9, "expected a piece letter P L N S G B R K");
    expect_error("1. P-7f\n2. P-7e", C::IllegalMove, 2, 4, "P-7e: no White pawn can move to 7e");
    expect_error("1. P-7f P-3d\n  2. Px2f", C::IllegalMove, 2, 6, "Px2f: nothing to capture on 2f");
    expect_error("1. P-7f P-3d 2. G-5h", C::BadMove, 1, 17, "G-5h: ambiguous: G4i-5h, G6i-5h");
    expect_error("1. P-7f [ open", C::BadMove, 1, 9, "unterminated comment: no ']'");
    expect_error("1. P-7f (a (b) c", C::BadMove, 1, 9, "unterminated comment: no ')'");
    expect_error("1. P-7f ] P-3d", C::BadMove, 1, 9, "unmatched ']'");
    expect_error("[Sente \"abc\n1. P-7f", C::BadHeader, 1, 8, "tag Sente: unterminated value");
    expect_error("[Sente \"abc\" x\n", C::BadHeader, 1, 14, "tag Sente: expected ']'");
    expect_error("[Sente \"abc", C::BadHeader, 1, 8, "tag Sente: unterminated value");
    expect_error("[Sente \"abc\"", C::BadHeader, 1, 13, "tag Sente: expected ']'");
    expect_error("[Handicap \"Queen\"]\n", C::BadHeader, 1, 12, "unknown handicap 'Queen'");
    expect_error("[SFEN \"4k4/9/9/9/9/9/9/9/4K4 x - 1\"]\n1. K-5h", C::BadSideToMove, 1, 30,
                 "SFEN: side to move must be 'b' or 'w', found 'x'");
    expect_error("1. P-7f Mate", C::IllegalMove, 1, 9, "'Mate', but the position is not checkmate");
    expect_error("1. P-7f Resigns P-3d", C::IllegalMove, 1, 17, "P-3d: a move after the result");
    expect_error("[Result \"0-1\"]\n1. P-7f Resigns", C::BadHeader, 1, 10,
                 "the Result tag disagrees with the end of the moves");
    expect_error("# t\n# Handicap: nine\n", C::BadHeader, 2, 13, "unknown handicap 'nine'");
    // A move the rules refuse, after a comment that spans lines: the line is the move's.
    expect_error("1. P-7f [ a\nlong note ] P-3d 2. P*5e", C::IllegalMove, 2, 21, "P*5e: that piece is not in hand");
}

TEST(Psn, RandomGamesRoundTripWithComments) {
    std::mt19937 rng(1990);
    for (int g = 0; g < 25; ++g) {
        GameRecord rec;
        core::Position pos;
        rec.set_header(key::BLACK, "Black " + std::to_string(g));
        if (g % 3 == 0)
            rec.start_comments.push_back("Game " + std::to_string(g) + "\nsecond line");
        for (int ply = 0; ply < 120; ++ply) {
            core::MoveList<core::LEGAL, true> moves(pos);
            if (moves.size() == 0)
                break;
            MoveRecord mr{(moves.begin() + rng() % moves.size())->move, {}, {}, {}};
            if (rng() % 7 == 0)
                mr.comments.push_back(rng() % 2 ? "note ] with a bracket" : "Word \"looks like a tag\"");
            rec.moves.push_back(mr);
            pos.play(mr.move);
        }
        if (g % 2)
            rec.result = RecordResult{core::Winner::White, core::EndReason::Resignation, core::BLACK, {}};
        GameRecord back = must_read(write_psn(rec));
        EXPECT_EQ(back.main_line(), rec.main_line());
        EXPECT_EQ(back.start_comments, rec.start_comments);
        for (std::size_t i = 0; i < rec.moves.size(); ++i)
            EXPECT_EQ(back.moves[i].comments.size(), rec.moves[i].comments.size());
        EXPECT_EQ(back.result.winner, rec.result.winner);
        GameRecord gam = must_read(write_xshogi_game(rec));
        EXPECT_EQ(gam.main_line(), rec.main_line());
        EXPECT_EQ(final_sfen(gam), final_sfen(rec));
    }
}
