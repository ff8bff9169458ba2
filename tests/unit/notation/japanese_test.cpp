// Japanese vocabulary: piece names, numerals, squares, KIF and KI2 move texts (the JSA
// disambiguation rules, checked both ways and over random games), special words and まで lines.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "core/movegen.h"
#include "notation/japanese.h"

namespace hisha::notation {
namespace {

using core::Move;
using core::Position;

std::unique_ptr<Position> position(const std::string& sfen) {
    auto p = std::make_unique<Position>();
    auto r = p->set(sfen);
    EXPECT_TRUE(r.has_value()) << sfen;
    return p;
}

Move board_move(const Position& pos, int from, int to, bool promote = false) {
    return pos.make_move(square_of(from / 10, from % 10), square_of(to / 10, to % 10), promote);
}

// The KI2 text of a move and the move read back from that text.
void expect_ki2(const Position& pos, Move m, const std::string& text, Move previous = Move::none()) {
    ASSERT_TRUE(pos.is_legal(m)) << text;
    EXPECT_EQ(ki2_move_text(pos, m, previous), text);
    auto back = parse_ki2_move(pos, text, previous);
    ASSERT_TRUE(back.has_value()) << text << ": " << back.error().to_string();
    EXPECT_EQ(*back, m) << text;
}

// A board move (from and to as file-rank numbers, 77 for ７七) and its KI2 text.
struct Ki2Move {
    int from;
    int to;
    const char* text;
    bool promote = false;
};

// expect_ki2 for each of `moves` in `pos`.
void expect_ki2_moves(const Position& pos, std::initializer_list<Ki2Move> moves) {
    for (const Ki2Move& m : moves)
        expect_ki2(pos, board_move(pos, m.from, m.to, m.promote), m.text);
}

// The error of a text that must not read as a move (ParseError{} when it does read).
template <class Result>
ParseError error_of(const Result& r, const std::string& text) {
    EXPECT_FALSE(r.has_value()) << text << " read";
    return r.has_value() ? ParseError{} : r.error();
}
ParseError kif_error(const Position& pos, const std::string& text) {
    return error_of(parse_kif_move(pos, text, Move::none()), text);
}
ParseError ki2_error(const Position& pos, const std::string& text) {
    return error_of(parse_ki2_move(pos, text, Move::none()), text);
}

TEST(JapaneseText, PiecesAndAliases) {
    for (int pt = core::PAWN; pt <= core::DRAGON; ++pt) {
        std::string_view name = piece_kanji(core::PieceType(pt));
        auto back = read_piece(name);
        ASSERT_TRUE(back.has_value()) << pt;
        EXPECT_EQ(*back, core::PieceType(pt));
        EXPECT_TRUE(name.empty());
        std::string_view one = piece_char(core::PieceType(pt));
        EXPECT_EQ(code_point_count(one), 1);
        EXPECT_EQ(read_piece(one), core::PieceType(pt));
    }
    for (auto [text, pt] :
         std::initializer_list<std::pair<std::string_view, core::PieceType>>{{"王", core::KING},
                                                                             {"竜", core::DRAGON},
                                                                             {"杏", core::PRO_LANCE},
                                                                             {"圭", core::PRO_KNIGHT},
                                                                             {"全", core::PRO_SILVER},
                                                                             {"成銀", core::PRO_SILVER}}) {
        std::string_view s = text;
        EXPECT_EQ(read_piece(s), pt) << text;
    }
    std::string_view bad = "象";
    EXPECT_FALSE(read_piece(bad).has_value());
}

TEST(JapaneseText, NumbersAndSquares) {
    EXPECT_EQ(kanji_number(1), "一");
    EXPECT_EQ(kanji_number(10), "十");
    EXPECT_EQ(kanji_number(13), "十三");
    EXPECT_EQ(kanji_number(18), "十八");
    EXPECT_EQ(kanji_number(20), "二十");
    for (int n = 1; n <= 99; ++n) {
        std::string text = kanji_number(n);
        std::string_view s = text;
        EXPECT_EQ(read_number(s), n) << text;
        EXPECT_TRUE(s.empty());
    }
    std::string_view digits = "１８枚";
    EXPECT_EQ(read_number(digits), 18);
    EXPECT_EQ(digits, "枚");
    for (std::string_view text : {"７六", "76", "７６", "7六"}) {
        std::string_view s = text;
        EXPECT_EQ(read_square(s), square_of(7, 6)) << text;
    }
    std::string_view zero = "０六";
    EXPECT_FALSE(read_square(zero).has_value());
    EXPECT_EQ(square_name(square_of(1, 9)), "１九");
    EXPECT_EQ(display_width("７六歩(77)"), 10);
}

TEST(JapaneseText, SideMarks) {
    for (std::string_view b : {"▲", "☗", "▼"}) {
        std::string_view s = b;
        EXPECT_EQ(read_side_mark(s), core::BLACK);
    }
    for (std::string_view w : {"△", "☖", "▽"}) {
        std::string_view s = w;
        EXPECT_EQ(read_side_mark(s), core::WHITE);
    }
    EXPECT_EQ(side_name(core::WHITE, true), "上手");
    EXPECT_EQ(side_name(core::BLACK, false), "先手");
}

TEST(JapaneseKif, MoveTexts) {
    Position pos;
    Move m = board_move(pos, 77, 76);
    EXPECT_EQ(kif_move_text(pos, m), "７六歩(77)");
    pos.play(m);
    pos.play(board_move(pos, 33, 34));
    Move bx = board_move(pos, 88, 22, true);
    EXPECT_EQ(kif_move_text(pos, bx), "２二角成(88)");
    pos.play(bx);
    Move sx = board_move(pos, 31, 22);
    EXPECT_EQ(kif_move_text(pos, sx, bx), "同　銀(31)");
    pos.play(sx);
    Move drop = pos.make_drop(core::BISHOP, square_of(5, 5));
    EXPECT_EQ(kif_move_text(pos, drop), "５五角打");
}

TEST(JapaneseKif, ParseAndErrors) {
    Position pos;
    auto m = parse_kif_move(pos, "７六歩(77)   ( 0:16/00:00:16)", Move::none());
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->move, board_move(pos, 77, 76));
    EXPECT_EQ(m->length, std::string_view("７六歩(77)").size());

    ParseError unknown = kif_error(pos, "７六象(77)");
    EXPECT_EQ(unknown.column, 3);
    EXPECT_EQ(unknown.message, "７六象(77): unknown piece");
    EXPECT_EQ(kif_error(pos, "０六歩(77)").message, "０六歩(77): bad square");
    EXPECT_EQ(kif_error(pos, "同　歩(77)").message, "同　歩(77): 同 with no previous move");
    EXPECT_EQ(kif_error(pos, "７六銀(77)").message, "７六銀(77): the piece on ７七 is 歩, not 銀");
    ParseError blocked = kif_error(pos, "５五角(88)");
    EXPECT_EQ(blocked.code, ParseErrorCode::IllegalMove);
    EXPECT_EQ(blocked.message, "５五角(88): the piece on 8h cannot move to 5e");

    ParseError pawns = kif_error(*position("4k4/9/9/9/9/9/7P1/9/4K4 b P 1"), "２三歩打");
    EXPECT_EQ(pawns.message, "２三歩打: two pawns on file 2");
    EXPECT_EQ(pawns.column, 1);
}

TEST(JapaneseKi2, PositionWords) {
    expect_ki2_moves(*position("4k4/9/9/9/9/9/9/9/3G1G2K b - 1"), {{69, 58, "▲５八金左"}, {49, 58, "▲５八金右"}});
    expect_ki2_moves(*position("4k4/9/9/9/9/9/9/9/3GGG2K b - 1"),
                     {{59, 58, "▲５八金直"}, {69, 58, "▲５八金左"}, {49, 58, "▲５八金右"}});
}

TEST(JapaneseKi2, MotionWordsComeFirst) {
    expect_ki2_moves(*position("4k4/9/9/9/9/9/9/3G5/5G2K b - 1"), {{68, 58, "▲５八金寄"}, {49, 58, "▲５八金上"}});
    expect_ki2_moves(*position("4k4/9/9/9/9/9/4G4/9/3G4K b - 1"), {{57, 58, "▲５八金引"}, {69, 58, "▲５八金上"}});
}

TEST(JapaneseKi2, PositionAndMotionTogether) {
    expect_ki2_moves(
        *position("4k4/9/9/9/9/9/9/3G1G3/3G1G2K b - 1"),
        {{49, 58, "▲５八金右上"}, {48, 58, "▲５八金右寄"}, {68, 58, "▲５八金左寄"}, {69, 58, "▲５八金左上"}});
}

TEST(JapaneseKi2, DragonsAndHorses) {
    expect_ki2_moves(*position("k8/4+R3+R/9/9/9/9/9/9/4K4 b - 1"), {{12, 32, "▲３二龍右"}, {52, 32, "▲３二龍左"}});
    // One dragon moves straight: 右/左 still name the one on that side, never 直.
    expect_ki2_moves(*position("k8/5+R3/9/9/4+R4/9/9/9/4K4 b - 1"), {{42, 51, "▲５一龍右"}, {55, 51, "▲５一龍左"}});
    expect_ki2_moves(*position("k7+B/9/6+B2/9/9/9/9/9/4K4 b - 1"), {{11, 22, "▲２二馬引"}, {33, 22, "▲２二馬上"}});
}

TEST(JapaneseKi2, DropsPromotionsAndWhite) {
    auto p = position("4k4/9/9/6S2/9/9/9/9/5G2K b G 1");
    expect_ki2(*p, p->make_drop(core::GOLD, square_of(5, 8)), "▲５八金打");
    expect_ki2(*p, p->make_drop(core::GOLD, square_of(5, 5)), "▲５五金");
    expect_ki2_moves(*p,
                     {{49, 58, "▲５八金"}, {34, 33, "▲３三銀不成"}, {34, 33, "▲３三銀成", true}, {34, 45, "▲４五銀"}});
    expect_ki2_moves(*position("3g1g3/9/4k4/9/9/9/9/9/4K4 w - 1"), {{41, 52, "△５二金左"}, {61, 52, "△５二金右"}});
}

TEST(JapaneseKi2, SameSquare) {
    Position pos;
    pos.play(board_move(pos, 77, 76));
    pos.play(board_move(pos, 33, 34));
    Move bx = board_move(pos, 88, 22, true);
    pos.play(bx);
    expect_ki2(pos, board_move(pos, 31, 22), "△同　銀", bx);
    auto q = position("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    EXPECT_EQ(ki2_error(*q, "▲同　銀").message, "▲同　銀: 同 with no previous move");
}

TEST(JapaneseKi2, Errors) {
    auto three = position("4k4/9/9/9/9/9/9/9/3GGG2K b - 1");
    EXPECT_EQ(ki2_error(*three, "▲５八金").message, "▲５八金: ambiguous: 金 on ４九, ５九, ６九 can move there");
    EXPECT_EQ(ki2_error(*three, "▲５五金").message, "▲５五金: no 金 can move to ５五");
    EXPECT_EQ(ki2_error(*three, "△５八金直").message, "△５八金直: White's mark but the other side is to move");
    EXPECT_EQ(ki2_error(*three, "▲５八金直です").column, 6);
    auto pawns = position("4k4/9/9/9/9/9/7P1/9/4K4 b P 1");
    EXPECT_EQ(ki2_error(*pawns, "▲２三歩").message, "▲２三歩: two pawns on file 2");
}

// Every legal move of positions from random games: its KIF and KI2 texts read back to it.
TEST(JapaneseKi2, RandomGamesRoundTrip) {
    std::mt19937 rng(20240517);
    int checked = 0;
    for (int game = 0; game < 30; ++game) {
        Position pos;
        Move previous = Move::none();
        for (int ply = 0; ply < 160; ++ply) {
            core::MoveList<core::LEGAL, true> list(pos);
            if (list.size() == 0)
                break;
            for (const auto& sm : list) {
                std::string kif = kif_move_text(pos, sm.move, previous);
                auto k = parse_kif_move(pos, kif, previous);
                ASSERT_TRUE(k.has_value()) << pos.sfen() << " " << kif << ": " << k.error().to_string();
                EXPECT_EQ(k->move, sm.move) << pos.sfen() << " " << kif;
                std::string ki2 = ki2_move_text(pos, sm.move, previous);
                auto b = parse_ki2_move(pos, ki2, previous);
                ASSERT_TRUE(b.has_value()) << pos.sfen() << " " << ki2 << ": " << b.error().to_string();
                EXPECT_EQ(*b, sm.move) << pos.sfen() << " " << ki2;
                ++checked;
            }
            Move m = list.begin()[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)].move;
            pos.play(m);
            previous = m;
        }
    }
    EXPECT_GT(checked, 100000);
}

TEST(JapaneseResult, SpecialWords) {
    using core::EndReason;
    using core::Winner;
    auto r = result_from_special("投了", core::WHITE);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->winner, Winner::Black);
    EXPECT_EQ(r->reason, EndReason::Resignation);
    EXPECT_EQ(r->actor, core::WHITE);
    EXPECT_EQ(result_from_special("反則勝ち", core::BLACK)->winner, Winner::Black);
    EXPECT_EQ(result_from_special("反則勝ち", core::BLACK)->actor, core::WHITE);
    EXPECT_EQ(result_from_special("反則負け", core::BLACK)->winner, Winner::White);
    EXPECT_EQ(result_from_special("詰", core::BLACK)->reason, EndReason::Checkmate);
    EXPECT_EQ(result_from_special("不詰", core::BLACK)->reason, EndReason::None);
    EXPECT_FALSE(result_from_special("７六歩", core::BLACK).has_value());
    for (std::string_view w : {"投了", "中断", "千日手", "持将棋", "詰み", "切れ負け", "反則勝ち", "反則負け",
                               "入玉勝ち", "不戦勝", "不戦敗", "封じ手"})
        for (core::Color c : {core::BLACK, core::WHITE}) {
            auto res = result_from_special(w, c);
            ASSERT_TRUE(res.has_value()) << w;
            EXPECT_EQ(special_word(*res, c), w);
            std::string summary = summary_text(*res, 10, c, false);
            auto back = result_from_summary(summary, c);
            ASSERT_TRUE(back.has_value()) << summary;
            EXPECT_EQ(back->reason, res->reason) << summary;
            EXPECT_EQ(back->winner, res->winner) << summary;
            EXPECT_EQ(back->actor, res->actor) << summary;
        }
}

TEST(JapaneseResult, Summaries) {
    auto r = result_from_summary("まで142手で下手の勝ち", core::WHITE);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->winner, core::Winner::Black);
    EXPECT_EQ(r->reason, core::EndReason::Resignation);
    auto t = result_from_summary("まで3手で時間切れにより先手の勝ち", core::WHITE);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->reason, core::EndReason::TimeUp);
    EXPECT_EQ(t->actor, core::WHITE);
    auto mate = result_from_summary("まで61手詰", core::WHITE);
    ASSERT_TRUE(mate.has_value());
    EXPECT_EQ(mate->reason, core::EndReason::Checkmate);
    EXPECT_EQ(mate->winner, core::Winner::Black);
    EXPECT_FALSE(result_from_summary("まで25手で何か", core::WHITE).has_value());
    RecordResult res;
    res.winner = core::Winner::White;
    res.reason = core::EndReason::Resignation;
    EXPECT_EQ(summary_text(res, 116, core::BLACK, false), "まで116手で後手の勝ち");
    EXPECT_EQ(summary_text(res, 116, core::BLACK, true), "まで116手で上手の勝ち");
}

}  // namespace
}  // namespace hisha::notation
