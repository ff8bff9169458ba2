// A scripted USI conversation through the real command handler.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>

#include "core/text.h"
#include "core/version.h"
#include "protocol/usi_engine.h"

using hisha::protocol::UsiEngine;

namespace {
// An output stream the engine's search thread writes to while the test reads what it holds so far.
// It has no put area, so every write, a character or a string, comes through the lock.
class SharedOutput : public std::streambuf {
public:
    std::string snapshot() {
        std::lock_guard lock(mutex_);
        return text_;
    }

protected:
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        std::lock_guard lock(mutex_);
        text_.append(s, std::size_t(n));
        return n;
    }
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof()))
            return traits_type::not_eof(c);
        std::lock_guard lock(mutex_);
        text_.push_back(traits_type::to_char_type(c));
        return c;
    }

private:
    std::mutex mutex_;
    std::string text_;
};

// Runs a script and returns every line the engine wrote.
std::vector<std::string> converse(const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    {
        UsiEngine usi(in, out);
        usi.run();
    }
    const std::string text = out.str();
    std::vector<std::string> lines;
    for (std::string_view l : hisha::text::lines(text))
        lines.emplace_back(l);
    return lines;
}
// How many of `lines` start with `p`.
int count_prefixed(const std::vector<std::string>& lines, std::string_view p) {
    return int(std::count_if(lines.begin(), lines.end(), [p](std::string_view l) { return l.starts_with(p); }));
}
bool has_prefix(const std::vector<std::string>& lines, std::string_view p) { return count_prefixed(lines, p) > 0; }
// Whether any of `lines` holds `part`.
bool has_line_with(const std::vector<std::string>& lines, std::string_view part) {
    return std::any_of(lines.begin(), lines.end(),
                       [part](std::string_view l) { return l.find(part) != std::string_view::npos; });
}
}  // namespace

TEST(UsiEngine, HandshakeListsOptionsThenUsiok) {
    auto lines = converse("usi\nisready\nquit\n");
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], std::string("id name Hisha ") + hisha::version());
    EXPECT_TRUE(has_prefix(lines, "option name USI_Hash type spin"));
    EXPECT_TRUE(has_prefix(lines, "option name Threads type spin"));
    EXPECT_TRUE(has_prefix(lines, "option name MultiPV type spin"));
    auto usiok = std::find(lines.begin(), lines.end(), "usiok");
    auto ready = std::find(lines.begin(), lines.end(), "readyok");
    ASSERT_NE(usiok, lines.end());
    ASSERT_NE(ready, lines.end());
    EXPECT_LT(usiok, ready);
}

TEST(UsiEngine, GoDepthAnswersOneBestmoveAfterInfo) {
    auto lines = converse("usi\nisready\nusinewgame\nposition startpos moves 7g7f 3c3d\ngo depth 4\n");
    int bestmoves = 0;
    bool info_before = false;
    for (const auto& l : lines) {
        if (l.rfind("info depth", 0) == 0 && bestmoves == 0)
            info_before = true;
        bestmoves += l.rfind("bestmove ", 0) == 0;
    }
    EXPECT_EQ(bestmoves, 1);
    EXPECT_TRUE(info_before);
    EXPECT_TRUE(has_prefix(lines, "info depth 4 "));
}

TEST(UsiEngine, MateIsReportedInPliesAndWinIsDeclared) {
    auto mate = converse("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo depth 3\n");
    EXPECT_TRUE(has_prefix(mate, "bestmove G*5b"));
    EXPECT_TRUE(has_line_with(mate, "score mate 1 "));
    auto win = converse("position sfen 4K4/RRBB5/PPPPPP3/9/9/9/9/9/8k b 2P 1\ngo byoyomi 1000\n");
    EXPECT_TRUE(has_prefix(win, "bestmove win"));
}

TEST(UsiEngine, MatedSideResigns) {
    auto lines = converse("position sfen 3lkl3/9/3GPG3/9/9/9/9/9/4K4 b - 1 moves 5c5b+\ngo byoyomi 1000\n");
    EXPECT_TRUE(has_prefix(lines, "bestmove resign"));
}

TEST(UsiEngine, StopEndsAnInfiniteSearchAndPonderhitAPonder) {
    std::istringstream in;
    SharedOutput buffer;
    std::ostream out(&buffer);
    UsiEngine usi(in, out);
    usi.handle("position startpos");
    usi.handle("go infinite");
    // Wait (bounded) until the search has reported a few depths: an infinite search never ends
    // on its own, so there must still be no bestmove then.
    for (int i = 0; i < 500 && buffer.snapshot().find("info depth 3 ") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_NE(buffer.snapshot().find("info depth 3 "), std::string::npos);
    EXPECT_EQ(buffer.snapshot().find("bestmove"), std::string::npos);  // never before stop
    usi.handle("stop");
    usi.handle("isready");  // waits for nothing, answers at once
    for (int i = 0; i < 200 && buffer.snapshot().find("bestmove") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_NE(buffer.snapshot().find("bestmove"), std::string::npos);
}

// Found by usi_fuzz: a second go without a stop waited for the infinite search, which only a
// stop (never read: the reading thread was the one waiting) could end.
TEST(UsiEngine, AGoWhileSearchingEndsTheRunningSearchFirst) {
    auto lines = converse("position startpos\ngo infinite\ngo depth 2\ngo mate infinite\ngo depth 1\n");
    EXPECT_EQ(count_prefixed(lines, "bestmove "), 3);  // the infinite search's, depth 2's and depth 1's
    EXPECT_TRUE(has_prefix(lines, "checkmate"));       // the mate search's answer (none, or stopped)
}

TEST(UsiEngine, BadInputIsReportedAndIgnored) {
    auto lines = converse("position sfen garbage\nsetoption name Threads value lots\nsetoption name Nope value 1\n"
                          "position startpos moves 7g7e\nfrobnicate\nisready\n");
    EXPECT_TRUE(has_prefix(lines, "info string bad position"));
    EXPECT_TRUE(has_prefix(lines, "info string option Threads"));
    EXPECT_TRUE(has_prefix(lines, "info string no such option: Nope"));
    EXPECT_TRUE(has_prefix(lines, "info string unknown command: frobnicate"));
    EXPECT_EQ(lines.back(), "readyok");
}

TEST(UsiEngine, SetoptionChangesMultiPV) {
    auto lines = converse("setoption name MultiPV value 3\nposition startpos\ngo depth 3\n");
    EXPECT_TRUE(has_prefix(lines, "info depth 3 seldepth"));
    EXPECT_TRUE(has_line_with(lines, " multipv 3 "));
}

TEST(UsiEngine, GoMateAnswersWithTheSolversLine) {
    auto mate = converse("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate 5000\n");
    EXPECT_EQ(mate.back(), "checkmate G*5b");
    auto none = converse("position sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1\ngo mate 5000\n");
    EXPECT_EQ(none.back(), "checkmate nomate");
}

// A move from the book is announced like a searched one (GUIs show its line and a score):
// an info line with depth, score and the move as the pv, then the bestmove.
TEST(UsiEngine, ABookMoveIsAnnouncedWithScoreAndPvBeforeBestmove) {
    auto lines = converse("usi\nsetoption name OwnBook value true\nisready\nusinewgame\nposition startpos\n"
                          "go btime 60000 wtime 60000 byoyomi 10000\n");
    auto best =
        std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("bestmove ", 0) == 0; });
    ASSERT_NE(best, lines.end());
    ASSERT_NE(best, lines.begin());
    std::string move =
        best->substr(9, best->find(' ', 9) == std::string::npos ? std::string::npos : best->find(' ', 9) - 9);
    const std::string& info = *(best - 1);
    EXPECT_EQ(info.rfind("info depth 1 ", 0), 0u) << info;
    EXPECT_NE(info.find(" score cp 0 "), std::string::npos) << info;
    EXPECT_NE(info.find(" nodes 0 "), std::string::npos) << info;  // no search: the book's move
    EXPECT_EQ(info.substr(info.size() - move.size() - 4), " pv " + move) << info;
}

// ResignValue: a game move whose score is that far below even is a resignation; the default
// never resigns before mate, and an analysis (go infinite) never does.
TEST(UsiEngine, ResignValueResignsAHopelessPositionOnlyWhenSet) {
    // Black to move without rook and bishop: far below even.
    const std::string pos = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1\n";
    auto resigned = converse("setoption name ResignValue value 600\n" + pos + "go depth 4\n");
    EXPECT_TRUE(has_prefix(resigned, "bestmove resign"));
    auto plays = converse(pos + "go depth 4\n");
    EXPECT_TRUE(has_prefix(plays, "bestmove ") && !has_prefix(plays, "bestmove resign"));
    auto even = converse("setoption name ResignValue value 600\nposition startpos\ngo depth 4\n");
    EXPECT_FALSE(has_prefix(even, "bestmove resign"));
    EXPECT_TRUE(has_prefix(converse("setoption name ResignValue value 100000\n"), "info string option ResignValue"));
}

// DrawValueBlack/White: what a draw by repetition is worth to the engine on each side. White to
// move can repeat the start position a fourth time (7b8b): it does when a draw is worth much to
// White, and avoids it when a draw is worth little.
TEST(UsiEngine, DrawValueDecidesWhetherTheEngineRepeats) {
    const std::string pos = "position startpos moves 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h\n";
    auto wants = converse("setoption name DrawValueWhite value 3000\n" + pos + "go depth 3\n");
    EXPECT_TRUE(has_prefix(wants, "bestmove 7b8b"));
    auto avoids = converse("setoption name DrawValueWhite value -3000\n" + pos + "go depth 3\n");
    EXPECT_TRUE(has_prefix(avoids, "bestmove ") && !has_prefix(avoids, "bestmove 7b8b"));
    // Black's value does not matter to White.
    auto other = converse("setoption name DrawValueBlack value 3000\nsetoption name DrawValueWhite value -3000\n" + pos
                          + "go depth 3\n");
    EXPECT_FALSE(has_prefix(other, "bestmove 7b8b"));
}

// MaxMovesToDraw: once that many moves are played the game is a draw, so a won position at the
// limit scores as a draw (0 from the engine's view); without the limit it scores as won.
TEST(UsiEngine, MaxMovesToDrawScoresTheLimitAsADraw) {
    // Black a rook up, move 101 (100 moves played): the next move reaches a limit of 101.
    const std::string pos = "position sfen lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 101\n";
    auto score_of = [](const std::vector<std::string>& lines) {
        std::string last;
        for (const auto& l : lines)
            if (l.rfind("info depth 4 ", 0) == 0)
                last = l;
        auto at = last.find(" score cp ");
        return at == std::string::npos ? std::string("?") : last.substr(at + 10, last.find(' ', at + 10) - at - 10);
    };
    EXPECT_EQ(score_of(converse("setoption name MaxMovesToDraw value 101\n" + pos + "go depth 4\n")), "0");
    std::string free = score_of(converse(pos + "go depth 4\n"));
    ASSERT_NE(free, "?");
    EXPECT_GT(std::stoi(free), 500);
}
