// `hisha tsume --explain` (tsume/explain.h): the other defences of the main line with the mate
// the solver proves after each, and the yozume report. Every line printed is replayed to mate
// through the core's rules (tsume_test_util.h), not the solver's move generators.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tsume/explain.h"
#include "tsume_test_util.h"

namespace hisha::tsume::test {
namespace {

std::string sfen_of(const std::string& id) {
    for (const Problem& p : load_problems())
        if (p.id == id)
            return p.sfen;
    return "";
}

Explanation explain_sfen(const std::string& sfen, Convention conv = Convention::Ordinary,
                         ExplainBudget budget = {2'000'000, 0}) {
    core::Position pos;
    EXPECT_TRUE(pos.set(sfen, core::SfenRules::Relaxed)) << sfen;
    Limits limits;
    limits.memory_mb = 16;
    limits.max_nodes = 5'000'000;
    limits.convention = conv;
    Solver solver;
    Explanation e = explain(pos, limits, budget, solver);
    EXPECT_EQ(pos.sfen(), [&] {
        core::Position again;
        EXPECT_TRUE(again.set(sfen, core::SfenRules::Relaxed));
        return again.sfen();
    }()) << "explain() must leave the position as it was";
    return e;
}

std::vector<core::Move> prefix(const std::vector<core::Move>& pv, int n) { return {pv.begin(), pv.begin() + n}; }

std::vector<core::Move> join(std::vector<core::Move> a, const std::vector<core::Move>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Every claim of the explanation replays: the main line up to a defence, the other defence and
// the refutation's line mate in exactly that many plies, never more than the main line's rest;
// the main line up to an attacker's move, then the other mating move's line, mate within the
// plies left. Returns how many lines were replayed.
int replay_every_claim(const std::string& sfen, const Explanation& e) {
    int replayed = 0;
    const std::vector<core::Move>& pv = e.main.pv;
    for (const DefenderChoice& c : e.choices) {
        EXPECT_EQ(c.played, pv[c.ply]);
        EXPECT_EQ(c.remaining, int(pv.size()) - c.ply - 1);
        for (const Refutation& r : c.others) {
            EXPECT_NE(r.verdict, Verdict::NoMate) << core::to_usi(r.defence) << " refutes the main line";
            if (r.verdict != Verdict::Mate)
                continue;
            EXPECT_LE(r.length, c.remaining) << core::to_usi(r.defence) << ": the defender chose a shorter defence";
            std::vector<core::Move> line = join(prefix(pv, c.ply), {r.defence});
            line = join(line, r.line);
            EXPECT_EQ(replay_error(sfen, line, c.ply + 1 + r.length), "") << core::to_usi(r.defence);
            ++replayed;
        }
    }
    for (const OtherMate& o : e.other_mates) {
        if (o.verdict != Verdict::Mate)
            continue;
        EXPECT_EQ(o.played, pv[o.ply]);
        EXPECT_NE(o.move, o.played);
        EXPECT_LE(o.length, o.remaining);
        EXPECT_EQ(replay_error(sfen, join(prefix(pv, o.ply), o.line), o.ply + o.length), "") << core::to_usi(o.move);
        ++replayed;
    }
    return replayed;
}

TEST(Explain, AShorterDefenceIsRefutedWithItsMate) {
    // yane-m5-03 (YaneuraOu's mate5 set, 5 plies): S*5h checks the king on 6i. Checked by hand:
    // 6i7i loses at once to R*6i (8i and 8h hold the defender's own knight and silver, 7h its
    // gold; the rook covers 6h; the silver on 5h guards 6i, so the king cannot take it), while
    // the main line's 6i6h lasts 3 more plies.
    const std::string sfen = sfen_of("yane-m5-03");
    ASSERT_FALSE(sfen.empty());
    Explanation e = explain_sfen(sfen);
    ASSERT_EQ(e.main.status, Status::Mate) << explanation_text(e);
    ASSERT_EQ(e.main.length, 5);
    EXPECT_EQ(core::to_usi(e.main.pv[0]), "S*5h");
    const DefenderChoice* first = nullptr;
    for (const DefenderChoice& c : e.choices)
        if (c.ply == 1)
            first = &c;
    ASSERT_NE(first, nullptr) << explanation_text(e);
    EXPECT_EQ(core::to_usi(first->played), "6i6h");
    EXPECT_EQ(first->remaining, 3);
    ASSERT_EQ(first->others.size(), 1u) << explanation_text(e);
    const Refutation& r = first->others[0];
    EXPECT_EQ(core::to_usi(r.defence), "6i7i");
    ASSERT_EQ(r.verdict, Verdict::Mate);
    EXPECT_EQ(r.length, 1);
    ASSERT_EQ(r.line.size(), 1u);
    EXPECT_EQ(core::to_usi(r.line[0]), "R*6i");
    EXPECT_EQ(replay_every_claim(sfen, e), 1);  // 6i7i: the later 6h7i is forced
    EXPECT_EQ(e.timeouts, 0);
    std::string text = explanation_text(e);
    EXPECT_NE(text.find("6i7i: mate 1 R*6i"), std::string::npos) << text;
    EXPECT_NE(text.find("no yozume"), std::string::npos) << text;
}

TEST(Explain, TwoMatingMovesAreYozume) {
    // Constructed: the king on 1a, the silver on 3c guards 2b, the pawn on 1c guards 1b; a gold
    // dropped on 1b or on 2b mates (each is guarded and covers the king's other squares).
    const std::string sfen = "8k/9/6S1P/9/9/9/9/9/9 b G 1";
    Explanation e = explain_sfen(sfen, Convention::Tsume);
    ASSERT_EQ(e.main.status, Status::Mate);
    ASSERT_EQ(e.main.length, 1);
    ASSERT_EQ(e.other_mates.size(), 1u) << explanation_text(e);
    const OtherMate& o = e.other_mates[0];
    EXPECT_EQ(o.verdict, Verdict::Mate);
    EXPECT_EQ(o.length, 1);
    std::string moves = core::to_usi(e.main.pv[0]) + " " + core::to_usi(o.move);
    EXPECT_TRUE(moves == "G*1b G*2b" || moves == "G*2b G*1b") << moves;
    EXPECT_EQ(replay_every_claim(sfen, e), 1);
    EXPECT_NE(explanation_text(e).find("yozume at ply 1"), std::string::npos) << explanation_text(e);
}

TEST(Explain, YozumeDeeperInTheLine) {
    // yane-m5-02 (5 plies, 4h3i 2i1h G*2h 2f2h 3i2h): at ply 3, R*2h instead of G*2h mates in 3
    // as well, and at ply 5 the gold on 3g may take on 2h instead of the silver: both found.
    const std::string sfen = sfen_of("yane-m5-02");
    Explanation e = explain_sfen(sfen);
    ASSERT_EQ(e.main.status, Status::Mate) << explanation_text(e);
    ASSERT_EQ(e.main.length, 5);
    std::vector<std::string> found;
    for (const OtherMate& o : e.other_mates)
        if (o.verdict == Verdict::Mate)
            found.push_back(std::to_string(o.ply + 1) + " " + core::to_usi(o.move) + " " + std::to_string(o.length));
    EXPECT_NE(std::find(found.begin(), found.end(), "3 R*2h 3"), found.end()) << explanation_text(e);
    EXPECT_NE(std::find(found.begin(), found.end(), "5 3g2h 1"), found.end()) << explanation_text(e);
    EXPECT_GE(replay_every_claim(sfen, e), 3);
    EXPECT_EQ(e.timeouts, 0);
}

TEST(Explain, FutileInterpositionsAreNamedUnderTheTsumeConvention) {
    // antma-tsume1_nifu-01 (7 plies): after 1g9g the rook checks down the 9th file; a rook
    // dropped on 9c..9f is taken for free and that capture mates, so under the tsume convention
    // those drops are futile; under ordinary rules each is a defence with a mate of its own.
    const std::string sfen = sfen_of("antma-tsume1_nifu-01");
    Explanation tsume = explain_sfen(sfen, Convention::Tsume);
    ASSERT_EQ(tsume.main.status, Status::Mate) << explanation_text(tsume);
    int futile = 0;
    for (const DefenderChoice& c : tsume.choices)
        for (const Refutation& r : c.others)
            futile += r.verdict == Verdict::Futile;
    EXPECT_GE(futile, 4) << explanation_text(tsume);
    EXPECT_NE(explanation_text(tsume).find("R*9c: futile interposition"), std::string::npos);
    Explanation ordinary = explain_sfen(sfen);
    for (const DefenderChoice& c : ordinary.choices)
        for (const Refutation& r : c.others)
            EXPECT_NE(r.verdict, Verdict::Futile);
    EXPECT_GE(replay_every_claim(sfen, ordinary), 4);
}

TEST(Explain, ARunOutBudgetIsReportedNotGuessed) {
    // Two nodes a question: most questions cannot be answered; whatever is claimed still replays.
    const std::string sfen = sfen_of("antma-tsume5-06");
    Explanation e = explain_sfen(sfen, Convention::Ordinary, {2, 0});
    ASSERT_EQ(e.main.status, Status::Mate);
    EXPECT_GT(e.timeouts, 0);
    int timeouts = 0;
    for (const DefenderChoice& c : e.choices)
        for (const Refutation& r : c.others)
            timeouts += r.verdict == Verdict::Timeout;
    for (const OtherMate& o : e.other_mates)
        timeouts += o.verdict == Verdict::Timeout;
    EXPECT_EQ(timeouts, e.timeouts);
    replay_every_claim(sfen, e);
    std::string text = explanation_text(e);
    EXPECT_NE(text.find("timeout"), std::string::npos) << text;
    // No time at all for the questions together: each one that needs a search is a timeout
    // (what the move generator alone decides still is: a check with no reply, a check that
    // leaves a reply on the last ply); the main line stands.
    Explanation none = explain_sfen(sfen, Convention::Ordinary, {2'000'000, 0, 1e-9});
    ASSERT_EQ(none.main.status, Status::Mate);
    EXPECT_EQ(none.main.length, 7);
    int defences = 0;
    for (const DefenderChoice& c : none.choices)
        for (const Refutation& r : c.others) {
            EXPECT_EQ(r.verdict, Verdict::Timeout) << core::to_usi(r.defence);
            ++defences;
        }
    EXPECT_GT(defences, 0);
    for (const OtherMate& o : none.other_mates)
        EXPECT_TRUE(o.verdict == Verdict::Timeout || o.length == 1) << core::to_usi(o.move);
    EXPECT_GT(none.timeouts, defences) << explanation_text(none);
}

TEST(Explain, JsonParsesAndSaysWhatTheTextSays) {
    const std::string sfen = sfen_of("yane-m5-03");
    Explanation e = explain_sfen(sfen);
    auto j = nlohmann::json::parse(explanation_json(e));
    EXPECT_EQ(j["status"], "mate");
    EXPECT_EQ(j["length"], 5);
    EXPECT_EQ(j["moves"].size(), 5u);
    ASSERT_TRUE(j["defences"].is_array());
    ASSERT_GE(j["defences"].size(), 1u);
    const auto& d = j["defences"][0];
    EXPECT_EQ(d["ply"], 2);
    EXPECT_EQ(d["played"], "6i6h");
    EXPECT_EQ(d["remaining"], 3);
    EXPECT_EQ(d["others"][0]["move"], "6i7i");
    EXPECT_EQ(d["others"][0]["verdict"], "mate");
    EXPECT_EQ(d["others"][0]["length"], 1);
    EXPECT_EQ(d["others"][0]["line"][0], "R*6i");
    EXPECT_TRUE(j["yozume"].is_array());
    EXPECT_TRUE(j["undecided"].is_array());
    EXPECT_EQ(j["timeouts"], 0);
    // A position that is no mating problem: the error, and no questions.
    Explanation bad = explain_sfen("9/9/9/9/9/9/9/9/R8 b G 1");
    auto jb = nlohmann::json::parse(explanation_json(bad));
    EXPECT_EQ(jb["status"], "error");
    EXPECT_EQ(jb["questions"], 0);
}

}  // namespace
}  // namespace hisha::tsume::test
