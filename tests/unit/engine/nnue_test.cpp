// The network's inference: the incremental accumulators equal a fresh computation after every
// move of random games (drops, captures into hand, promotions, king moves across buckets, null
// moves, undo), the AVX2 and portable paths give the same numbers, a net written and read back
// evaluates the same, bad files are refused with a clear message, and the engine's Evaluation
// and EvalFile options load a net or fall back to Classic.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <unistd.h>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine/nnue/accumulator.h"
#include "engine/nnue/builtin_net.h"
#include "engine/nnue/gensfen.h"
#include "engine/nnue/network.h"
#include "engine/nnue/training_data.h"

using namespace hisha::core;
using namespace hisha::engine;
using namespace hisha::engine::nnue;

namespace {

std::shared_ptr<const Network> random_net(std::uint64_t seed, int l1 = 64) {
    return std::make_shared<const Network>(Network::random(seed, l1, 32, 32));
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("hisha_nnue_" + std::to_string(::getpid()) + "_" + name))
        .string();
}

// Positions along random games (several starts, including a handicap and pieces in hand).
std::vector<std::string> sample_sfens(int games, std::uint64_t seed) {
    const char* starts[] = {
        "startpos",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",  // two-piece handicap
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    };
    std::mt19937_64 rng(seed);
    std::vector<std::string> out;
    for (int g = 0; g < games; ++g) {
        Position p;
        std::string start = starts[g % 4];
        EXPECT_TRUE(p.set(start == "startpos" ? std::string(START_SFEN) : start));
        for (int ply = 0; ply < 120; ++ply) {
            MoveList<LEGAL> moves(p);
            if (moves.size() == 0)
                break;
            p.play(moves.begin()[rng() % moves.size()].move);
            out.push_back(p.sfen());
        }
    }
    return out;
}

}  // namespace

TEST(NnueFeatures, FramesFoldTheKingIntoNineBucketsAndMirror) {
    // Black's king on 5i: centre file, back rank, not mirrored; White's on 5a sees the same.
    EXPECT_EQ(frame_of(BLACK, SQ_59), (Frame{2, false}));
    EXPECT_EQ(frame_of(WHITE, SQ_51), (Frame{2, false}));
    // 8h (Black's Mino/Yagura side) mirrors onto 2h: edge group, second rank.
    EXPECT_EQ(frame_of(BLACK, SQ_88), (Frame{3, true}));
    EXPECT_EQ(frame_of(BLACK, SQ_28), (Frame{3, false}));
    // 1i (Anaguma) and a king up the board.
    EXPECT_EQ(frame_of(BLACK, SQ_19), (Frame{0, false}));
    EXPECT_EQ(frame_of(BLACK, SQ_55).bucket, 8);
    EXPECT_EQ(frame_of(BLACK, SQ_NONE), (Frame{0, false}));
    // Every bucket is reachable and features stay in range.
    std::set<int> buckets;
    for (int s = 0; s < SQ_NB; ++s)
        for (Color c : {BLACK, WHITE}) {
            Frame f = frame_of(c, Square(s));
            buckets.insert(f.bucket);
            EXPECT_LT(board_feature(c, f, W_DRAGON, Square(80 - s)), FEATURES);
            EXPECT_LT(hand_feature(c, f, ~c, GOLD, 3), FEATURES);
        }
    EXPECT_EQ(int(buckets.size()), KING_BUCKETS);
    EXPECT_EQ(hand_feature(BLACK, Frame{}, BLACK, PAWN, 18), -1);
}

TEST(NnueFeatures, MirroredPositionsHaveTheSameFeatures) {
    // A position and its left-right mirror image (kings on files 7 and 4, 3 and 6) give each
    // perspective the same feature set.
    Position a, b;
    ASSERT_TRUE(a.set("ln1g3nl/1r1sgk1b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1BK4R1/LN3GSNL b Sg 21"));
    std::string mirrored;
    {
        // Mirror the board string rank by rank.
        std::string board = a.sfen().substr(0, a.sfen().find(' '));
        std::string rest = a.sfen().substr(a.sfen().find(' '));
        std::vector<std::string> ranks;
        std::size_t at = 0;
        while (true) {
            std::size_t slash = board.find('/', at);
            ranks.push_back(board.substr(at, slash - at));
            if (slash == std::string::npos)
                break;
            at = slash + 1;
        }
        for (auto& r : ranks) {
            std::vector<std::string> cells;
            for (std::size_t i = 0; i < r.size(); ++i) {
                if (r[i] == '+') {
                    cells.push_back(r.substr(i, 2));
                    ++i;
                } else
                    cells.push_back(std::string(1, r[i]));
            }
            std::string rev;
            for (auto it = cells.rbegin(); it != cells.rend(); ++it)
                rev += *it;
            mirrored += (mirrored.empty() ? "" : "/") + rev;
        }
        mirrored += rest;
    }
    ASSERT_TRUE(b.set(mirrored)) << mirrored;
    for (Color persp : {BLACK, WHITE}) {
        std::uint16_t fa[MAX_ACTIVE], fb[MAX_ACTIVE];
        int na = active_features(a, persp, fa), nb = active_features(b, persp, fb);
        ASSERT_EQ(na, nb);
        std::sort(fa, fa + na);
        std::sort(fb, fb + nb);
        EXPECT_TRUE(std::equal(fa, fa + na, fb)) << "perspective " << int(persp);
    }
    auto net = random_net(3);
    EXPECT_EQ(net->evaluate(a), net->evaluate(b));
}

TEST(NnueAccumulator, IncrementalEqualsRefreshAlongRandomGames) {
    auto net = random_net(11);
    AccumulatorStack stack(net, MAX_PLY + 8);
    std::mt19937_64 rng(2024);
    int drops = 0, captures = 0, promotions = 0, king_moves = 0, nulls = 0, undos = 0, evaluated = 0;
    std::vector<std::int16_t> fresh(std::size_t(net->l1));
    const char* starts[] = {"startpos", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"};
    for (int g = 0; g < 60; ++g) {
        Position p;
        std::string s = starts[g % 3];
        ASSERT_TRUE(p.set(s == "startpos" ? std::string(START_SFEN) : s));
        std::vector<StateInfo> states(200);
        std::vector<Move> line;
        stack.clear();
        auto check = [&](int ply) {
            Value v = stack.evaluate(p, ply);
            ++evaluated;
            for (Color c : {BLACK, WHITE}) {
                net->refresh(p, c, fresh.data());
                ASSERT_TRUE(std::equal(fresh.begin(), fresh.end(), stack.accumulator(ply, c)))
                    << p.sfen() << " perspective " << int(c) << " ply " << ply;
                std::uint16_t features[MAX_ACTIVE];
                int n = active_features(p, c, features);
                ASSERT_EQ(stack.linear(ply, c), net->psqt_sum(features, n))
                    << p.sfen() << " perspective " << int(c) << " ply " << ply;
            }
            ASSERT_EQ(v, net->evaluate(p, Simd::Scalar)) << p.sfen();
        };
        check(0);
        for (int step = 0; step < 300; ++step) {
            int ply = int(line.size());
            bool undo = ply > 0 && (rng() % 5 == 0 || ply >= 150);
            if (undo) {
                Move m = line.back();
                line.pop_back();
                if (m == Move::null())
                    p.undo_null_move();
                else
                    p.undo_move(m);
                ++undos;
            } else {
                MoveList<LEGAL> moves(p);
                if (moves.size() == 0) {
                    if (ply == 0)
                        break;
                    continue;  // mated: the next steps undo
                }
                if (!p.in_check() && rng() % 20 == 0) {
                    p.do_null_move(states[std::size_t(ply)]);
                    line.push_back(Move::null());
                    ++nulls;
                } else {
                    Move m = moves.begin()[rng() % moves.size()].move;
                    drops += m.is_drop();
                    captures += !m.is_drop() && p.piece_on(m.to()) != NO_PIECE;
                    promotions += m.is_promotion();
                    king_moves += type_of(m.piece_after()) == KING;
                    p.do_move(m, states[std::size_t(ply)]);
                    line.push_back(m);
                }
            }
            // Evaluate most plies, skip some so that several moves are applied at once.
            if (rng() % 3 != 0)
                check(int(line.size()));
        }
    }
    EXPECT_GT(drops, 100);
    EXPECT_GT(captures, 100);
    EXPECT_GT(promotions, 20);
    EXPECT_GT(king_moves, 50);
    EXPECT_GT(nulls, 20);
    EXPECT_GT(undos, 100);
    EXPECT_GT(stack.updates, stack.refreshes) << "the accumulators were mostly recomputed";
    EXPECT_GT(evaluated, 5000);
}

TEST(NnueNetwork, Avx2AndScalarGiveTheSameValues) {
    if (!cpu_has_avx2())
        GTEST_SKIP() << "this CPU has no AVX2";
    for (int l1 : {32, 256}) {
        auto net = random_net(5 + l1, l1);
        for (const std::string& sfen : sample_sfens(8, 77)) {
            Position p;
            ASSERT_TRUE(p.set(sfen));
            ASSERT_EQ(net->evaluate(p, Simd::Scalar), net->evaluate(p, Simd::Avx2)) << sfen;
        }
        // The incremental path too.
        AccumulatorStack a(net, 300), b(net, 300);
        Position p;
        p.set_startpos();
        std::vector<StateInfo> states(120);
        std::mt19937_64 rng(9);
        for (int ply = 0; ply < 120; ++ply) {
            ASSERT_EQ(a.evaluate(p, ply, Simd::Scalar), b.evaluate(p, ply, Simd::Avx2));
            for (Color c : {BLACK, WHITE})
                ASSERT_TRUE(std::equal(a.accumulator(ply, c), a.accumulator(ply, c) + l1, b.accumulator(ply, c)));
            MoveList<LEGAL> moves(p);
            if (moves.size() == 0)
                break;
            p.do_move(moves.begin()[rng() % moves.size()].move, states[std::size_t(ply)]);
        }
    }
}

TEST(NnueNetwork, WrittenAndReadBackEvaluatesTheSame) {
    auto net = random_net(21, 96);
    Network copy = *net;
    copy.description = "test net";
    std::string path = temp_path("roundtrip.nnue");
    ASSERT_EQ(copy.save(path), "");
    auto loaded = Network::load(path);
    ASSERT_TRUE(loaded) << loaded.error();
    EXPECT_EQ(loaded->description, "test net");
    EXPECT_EQ(loaded->l1, 96);
    EXPECT_EQ(loaded->serialise(), copy.serialise());
    for (const std::string& sfen : sample_sfens(4, 5)) {
        Position p;
        ASSERT_TRUE(p.set(sfen));
        ASSERT_EQ(loaded->evaluate(p), copy.evaluate(p)) << sfen;
    }
    std::remove(path.c_str());
}

// A net of version 1 (before the linear term) reads and evaluates as its layers alone; the same
// layers in version 2 with a linear term add psqt[stm] - psqt[other].
TEST(NnueNetwork, VersionOneFilesHaveNoLinearTerm) {
    Network net = Network::random(31, 32, 32, 32);
    std::vector<std::int16_t> linear = net.psqt;
    net.psqt.clear();
    std::string v2 = net.serialise();
    // The same net in version 1: no psqt block after the feature weights.
    std::size_t at = std::size_t(HEADER_SIZE) + net.description.size() + std::size_t(net.l1) * 2
                   + std::size_t(FEATURES) * std::size_t(net.l1) * 2;
    std::string v1 = v2.substr(0, at) + v2.substr(at + std::size_t(FEATURES) * 2);
    auto put32 = [&](std::size_t off, std::uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i)
            v1[off + std::size_t(i)] = char((v >> (8 * i)) & 0xff);
    };
    put32(8, 1, 4);
    put32(40, v1.size() - std::size_t(HEADER_SIZE) - net.description.size(), 8);
    put32(48, crc32(v1.data() + HEADER_SIZE, v1.size() - std::size_t(HEADER_SIZE)), 4);
    auto old = Network::parse(v1);
    ASSERT_TRUE(old) << old.error();
    EXPECT_TRUE(old->psqt.empty());
    Network with = net;
    with.psqt = linear;
    for (const std::string& sfen : sample_sfens(2, 8)) {
        Position p;
        ASSERT_TRUE(p.set(sfen));
        ASSERT_EQ(old->evaluate(p), net.evaluate(p)) << sfen;
        std::uint16_t f[MAX_ACTIVE];
        Color us = p.side_to_move();
        int n_us = active_features(p, us, f);
        int linear_us = with.psqt_sum(f, n_us);
        int n_them = active_features(p, ~us, f);
        int expected = std::clamp(int(net.evaluate(p)) + linear_us - with.psqt_sum(f, n_them), -VALUE_KNOWN_WIN + 1,
                                  VALUE_KNOWN_WIN - 1);
        if (std::abs(net.evaluate(p)) < VALUE_KNOWN_WIN - 1)
            ASSERT_EQ(with.evaluate(p), expected) << sfen;
    }
}

TEST(NnueNetwork, BadFilesAreRefusedWithTheReason) {
    std::string good = Network::random(1, 32, 32, 32).serialise();
    auto error_of = [](const std::string& bytes) {
        auto r = Network::parse(bytes);
        return r ? std::string("(accepted)") : r.error();
    };
    EXPECT_NE(error_of(good.substr(0, 20)).find("too short"), std::string::npos);
    EXPECT_NE(error_of(good.substr(0, good.size() - 7)).find("truncated"), std::string::npos);
    EXPECT_NE(error_of(good + "x").find("after the end"), std::string::npos);
    std::string foreign = good;
    foreign[0] = 'X';
    EXPECT_NE(error_of(foreign).find("not a Hisha net"), std::string::npos);
    std::string version = good;
    version[8] = 9;
    EXPECT_NE(error_of(version).find("version 9"), std::string::npos);
    std::string features = good;
    features[12] = 7;
    EXPECT_NE(error_of(features).find("feature set 7"), std::string::npos);
    std::string sizes = good;
    sizes[24] = 33;
    EXPECT_NE(error_of(sizes).find("not supported"), std::string::npos);
    std::string flipped = good;
    flipped[good.size() / 2] ^= 0x10;
    EXPECT_NE(error_of(flipped).find("checksum"), std::string::npos);
    auto missing = Network::load("/nonexistent/dir/net.nnue");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("cannot open"), std::string::npos);
}

// The built-in net is the tree's src/engine/nnue/nets/hisha.nnue, byte for byte, and reads; a
// build from a tree without one has none.
TEST(NnueEngine, TheBuiltInNetIsTheTreesAndReads) {
    std::ifstream f(HISHA_NET_IN_TREE, std::ios::binary);
    if (!f) {
        EXPECT_TRUE(builtin_net_bytes().empty());
        EXPECT_EQ(builtin_net(), nullptr);
        return;
    }
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(std::string(builtin_net_bytes()), bytes);
    ASSERT_NE(builtin_net(), nullptr);
    EXPECT_EQ(builtin_net().get(), builtin_net().get());  // read once
}

// NNUE is the default where the build has a net (Classic without one); with EvalFile empty NNUE
// uses the built-in net; a file that does not load is reported and the built-in net (Classic in a
// build without one) evaluates instead.
TEST(NnueEngine, EvalFileLoadsANetAndFailuresFallBack) {
    const bool builtin = builtin_net() != nullptr;
    const std::string fallback = builtin ? "nnue" : "classic";
    const std::string instead = builtin ? "the built-in net evaluates instead" : "evaluating with Classic";
    Engine e;
    EXPECT_EQ(e.option("Evaluation"), builtin ? "NNUE" : "Classic");
    EXPECT_EQ(e.evaluation(), fallback);
    EXPECT_EQ(e.set_option("Evaluation", "Classic"), "");
    EXPECT_EQ(e.evaluation(), "classic");
    std::string err = e.set_option("Evaluation", "NNUE");
    if (builtin)
        EXPECT_EQ(err, "");
    else
        EXPECT_NE(err.find("evaluating with Classic"), std::string::npos) << err;
    EXPECT_EQ(e.evaluation(), fallback);
    err = e.set_option("EvalFile", "/nonexistent/net.nnue");
    EXPECT_NE(err.find("cannot open"), std::string::npos) << err;
    EXPECT_NE(err.find(instead), std::string::npos) << err;
    EXPECT_EQ(e.evaluation(), fallback);

    std::string path = temp_path("engine.nnue");
    ASSERT_EQ(Network::random(4, 64, 32, 32).save(path), "");
    EXPECT_EQ(e.set_option("EvalFile", path), "");
    EXPECT_EQ(e.evaluation(), "nnue");
    Position p;
    p.set_startpos();
    Limits l;
    l.depth = 6;
    SearchResult r = e.search(p, l);
    EXPECT_TRUE(p.legal(r.best));
    EXPECT_GT(r.nodes, 100u);
    // Same search, same nodes: the accumulators carry no state from one search to the next.
    e.new_game();
    EXPECT_EQ(e.search(p, l).nodes, r.nodes);

    // A corrupt file: reported, and the fallback evaluates again.
    std::ofstream(path, std::ios::binary | std::ios::trunc) << "HISHANNU garbage";
    err = e.set_option("EvalFile", path);
    EXPECT_NE(err.find("too short"), std::string::npos) << err;
    EXPECT_NE(err.find(instead), std::string::npos) << err;
    EXPECT_EQ(e.evaluation(), fallback);
    EXPECT_EQ(e.set_option("Evaluation", "Classic"), "");
    std::remove(path.c_str());
}

// --- training data

TEST(NnueData, PackedPositionsRoundTrip) {
    int n = 0;
    for (const std::string& sfen : sample_sfens(40, 99)) {
        Position p;
        ASSERT_TRUE(p.set(sfen, SfenRules::Relaxed));
        PackedPosition packed;
        ASSERT_TRUE(pack(p, packed)) << sfen;
        auto back = unpack_sfen(packed);
        ASSERT_TRUE(back) << back.error();
        Position q;
        ASSERT_TRUE(q.set(*back, SfenRules::Relaxed)) << *back;
        ASSERT_EQ(q.sfen(false), p.sfen(false));
        ASSERT_EQ(q.key(), p.key());
        ++n;
    }
    EXPECT_GT(n, 4000);
    // No king, and a full set with every piece on the board, fit too.
    for (const char* sfen :
         {"4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
          "+l+n+sgkg+s+n+l/1+r5+b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1+B5+R1/+L+N+SGKG+S+N+L w - 1"}) {
        Position p;
        ASSERT_TRUE(p.set(sfen, SfenRules::Relaxed)) << sfen;
        PackedPosition packed;
        ASSERT_TRUE(pack(p, packed)) << sfen;
        auto back = unpack_sfen(packed);
        ASSERT_TRUE(back) << back.error();
        EXPECT_EQ(*back, std::string(sfen).substr(0, std::string(sfen).size() - 1) + "1");
    }
    PackedPosition garbage;
    garbage.fill(0xFF);
    EXPECT_FALSE(unpack_sfen(garbage));
}

TEST(NnueData, RecordsCarryACheckByte) {
    Position p;
    p.set_startpos();
    TrainingRecord r;
    ASSERT_TRUE(pack(p, r.position));
    r.score = -123;
    r.move = p.make_move(SQ_77, SQ_76, false).to_move16().raw();
    r.ply = 1;
    r.result = -1;
    auto bytes = r.encode();
    auto back = TrainingRecord::decode(bytes.data());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->score, -123);
    EXPECT_EQ(back->result, -1);
    auto d = decode_position(*back);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(to_usi(d->move), "7g7f");
    bytes[40] ^= 1;
    EXPECT_FALSE(TrainingRecord::decode(bytes.data()));
    r.move = p.make_move(SQ_77, SQ_75, false).to_move16().raw();  // not a legal move
    auto bad = decode_position(*TrainingRecord::decode(r.encode().data()));
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("not legal"), std::string::npos);
}

TEST(NnueData, PreludeMovesAreSearchedMoreCheaply) {
    GensfenOptions o;
    o.nodes = 5000;
    EXPECT_EQ(gensfen_limits(o, false).nodes, 5000u);
    EXPECT_EQ(gensfen_limits(o, true).nodes, 625u);
    EXPECT_EQ(gensfen_limits(o, false).depth, 0);
    o.nodes = 5;
    EXPECT_EQ(gensfen_limits(o, true).nodes, 1u);
    o.nodes = 0;
    o.depth = 7;
    EXPECT_EQ(gensfen_limits(o, false).depth, 7);
    EXPECT_EQ(gensfen_limits(o, true).depth, 4);
    EXPECT_EQ(gensfen_limits(o, true).nodes, 0u);
    o.depth = 1;
    EXPECT_EQ(gensfen_limits(o, true).depth, 1);
}

TEST(NnueData, TinyGenerationDecodesToLegalPositionsAndResumes) {
    std::string path = temp_path("gensfen.bin");
    std::remove(path.c_str());
    std::remove((path + ".state").c_str());
    GensfenOptions o;
    o.out = path;
    o.games = 2;
    o.depth = 2;
    o.seed = 7;
    o.openings = {"startpos moves 7g7f 3c3d", "startpos moves 2g2f 8c8d"};
    auto r = gensfen(o);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->games, 2u);
    EXPECT_EQ(r->first_game, 0u);
    EXPECT_GT(r->written, 10u);
    EXPECT_EQ(r->in_file, r->written);
    EXPECT_GE(r->searched, r->written);
    EXPECT_GT(r->cpu_seconds, 0.0);  // reported, whatever the machine's load
    auto v = validate_file(path);
    ASSERT_TRUE(v) << v.error();
    EXPECT_EQ(v->records, r->written);
    EXPECT_EQ(v->bad, 0u) << (v->errors.empty() ? "" : v->errors[0]);
    EXPECT_EQ(v->wins + v->losses + v->draws, v->records);

    // A restart appends the next games (no game again), dropping a record cut short.
    { std::ofstream(path, std::ios::binary | std::ios::app) << "0123456789"; }
    o.games = 1;
    auto r2 = gensfen(o);
    ASSERT_TRUE(r2) << r2.error();
    EXPECT_EQ(r2->first_game, 2u);
    EXPECT_EQ(r2->dropped_bytes, 10u);
    EXPECT_EQ(r2->in_file, r->written + r2->written);
    v = validate_file(path);
    ASSERT_TRUE(v);
    EXPECT_EQ(v->bad, 0u);

    // Corruption is reported with the record's number and offset.
    {
        std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
        f.seekp(RECORD_BYTES + 5);
        f.put('\x7f');
    }
    v = validate_file(path);
    ASSERT_TRUE(v);
    EXPECT_EQ(v->bad, 1u);
    ASSERT_FALSE(v->errors.empty());
    EXPECT_EQ(v->errors[0].rfind("record 1 (offset 48): ", 0), 0u) << v->errors[0];
    std::remove(path.c_str());
    std::remove((path + ".state").c_str());
}
