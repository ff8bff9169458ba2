// Board diagrams: xshogi's position file, and the SHOGI-L e-mail diagram (written in the
// seed's layout, read tolerantly).
#include "diagram.h"

#include <cctype>
#include <optional>
#include <vector>

#include "core/text.h"
#include "notation/coordinate.h"

namespace hisha::notation {

using namespace hisha::core;

namespace {

constexpr std::size_t BOARD_WIDTH = 46;  // "|" and nine cells of " wL |"
const std::string BORDER = "+" + std::string(BOARD_WIDTH - 2, '-') + "+";
const std::string BOX_EDGE = "+" + std::string(18, '-') + "+";

// --- writing

std::string cell(Piece pc) {
    if (pc == NO_PIECE)
        return "    ";
    std::string s = is_promoted(type_of(pc)) ? "+" : " ";
    s += color_of(pc) == WHITE ? 'w' : 'b';
    s += piece_letter(type_of(pc));
    return s + " ";
}

// The two lines inside a hand box (16 characters each).
std::pair<std::string, std::string> hand_lines(Hand h) {
    std::vector<std::string> tokens;
    for (PieceType pt : HAND_ORDER)
        if (int n = h.count(pt); n > 0)
            tokens.push_back((n > 1 ? std::to_string(n) : "") + piece_letter(pt));
    std::string first, second;
    for (const auto& t : tokens) {
        std::string& line = second.empty() && first.size() + 1 + t.size() <= 16 ? first : second;
        line += (line.empty() ? "" : " ") + t;
    }
    first.resize(16, ' ');
    second.resize(16, ' ');
    return {first, second};
}

std::string box_line(const std::string& content) { return "| " + content + " |"; }

// --- reading

// The SFEN under construction, with where each of its characters came from.
struct SfenBuilder {
    std::string sfen;
    std::vector<std::pair<int, int>> where;
    void put(std::string_view s, int line, int column) {
        for (char c : s) {
            sfen += c;
            where.emplace_back(line, column);
        }
    }
};

struct HandToken {
    PieceType pt = NO_PIECE_TYPE;
    int count = 0;
};

ParseError diagram_error(ParseErrorCode code, std::string message, int line, int column) {
    return ParseError{code, std::move(message), line, column};
}

using text::lower;
using text::trim;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// "P", "2P", "P2", "Px2", "bP", "w2P" ...
std::optional<HandToken> hand_token(std::string_view t) {
    std::size_t i = 0;
    int before = 0, after = 0;
    while (i < t.size() && is_digit(t[i]) && before < 100)
        before = before * 10 + (t[i++] - '0');
    if (i + 1 < t.size() && (t[i] == 'w' || t[i] == 'b'))  // a colour prefix, lower case only
        ++i;
    while (i < t.size() && is_digit(t[i]) && before < 100)
        before = before * 10 + (t[i++] - '0');
    if (i >= t.size())
        return std::nullopt;
    PieceType pt = piece_from_letter(char(std::toupper(static_cast<unsigned char>(t[i++]))));
    if (i < t.size() && (t[i] == 'x' || t[i] == 'X'))
        ++i;
    while (i < t.size() && is_digit(t[i]) && after < 100)
        after = after * 10 + (t[i++] - '0');
    if (pt == NO_PIECE_TYPE || pt == KING || i != t.size() || (before && after) || before > 99)
        return std::nullopt;
    return HandToken{pt, before ? before : after ? after : 1};
}

// Reads the board from its top border down, collecting cells into an SFEN and the hand boxes
// beside it, then the side-to-move line below.
class DiagramReader {
public:
    explicit DiagramReader(std::string_view text);
    Result<std::string, ParseError> read();

private:
    Result<void, ParseError> row(std::size_t li, int rank);
    Result<void, ParseError> right_part(std::size_t li, std::size_t from, std::optional<int> rank);
    Result<void, ParseError> hand_box(std::string_view inside, int line, int column);
    void side_line(std::size_t from);
    void add_hands(SfenBuilder& sfen) const;

    std::vector<std::string_view> lines_;
    std::size_t indent_ = 0;
    SfenBuilder board_;
    int counts_[COLOR_NB][HAND_TYPE_NB] = {};
    std::pair<int, int> hand_where_[COLOR_NB][HAND_TYPE_NB] = {};
    std::optional<Color> box_;  // whose hand the box being read holds
    Color side_ = BLACK;
    int ply_ = 1;
    int side_line_ = 0;
    int board_line_ = 1;  // the board's top border
};

DiagramReader::DiagramReader(std::string_view text) {
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t nl = std::min(text.find('\n', start), text.size());
        std::string_view l = text.substr(start, nl - start);
        while (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        lines_.push_back(l);
        start = nl + 1;
    }
}

Result<std::string, ParseError> DiagramReader::read() {
    std::size_t li = 0;
    while (li < lines_.size() && trim(lines_[li]).rfind("+-", 0) != 0)
        ++li;
    if (li >= lines_.size())
        return unexpected(diagram_error(ParseErrorCode::BadBoard, "no board: expected a line starting with +---",
                                        int(lines_.size()), 1));
    indent_ = lines_[li].find('+');
    board_line_ = int(li) + 1;
    int rank = 0;
    for (; li < lines_.size() && rank < 9; ++li) {
        std::string_view l = lines_[li];
        if (l.size() > indent_ && l[indent_] == '|') {
            if (auto r = row(li, rank++); !r)
                return unexpected(r.error());
        } else if (l.size() > indent_ && l[indent_] == '+') {
            std::size_t e = indent_;
            while (e < l.size() && (l[e] == '+' || l[e] == '-'))
                ++e;
            if (auto r = right_part(li, e, std::nullopt); !r)
                return unexpected(r.error());
        } else
            return unexpected(diagram_error(ParseErrorCode::BadBoard,
                                            "expected rank " + std::string(1, char('a' + rank)) + " of the board",
                                            int(li) + 1, int(indent_) + 1));
    }
    if (rank < 9)
        return unexpected(diagram_error(ParseErrorCode::BadBoard,
                                        "the board has " + std::to_string(rank) + " ranks, expected 9",
                                        int(lines_.size()), 1));
    // The bottom border and the last box line follow the last rank.
    for (; li < lines_.size() && trim(lines_[li]).rfind("+-", 0) == 0; ++li) {
        std::size_t e = lines_[li].find_first_not_of("+-", indent_);
        if (auto r = right_part(li, e == std::string_view::npos ? lines_[li].size() : e, std::nullopt); !r)
            return unexpected(r.error());
    }
    side_line(li);
    SfenBuilder sfen = board_;
    int at = side_line_ > 0 ? side_line_ : board_line_;
    sfen.put(side_ == BLACK ? " b " : " w ", at, 1);
    add_hands(sfen);
    sfen.put(" " + std::to_string(ply_), at, 1);
    Position pos;
    if (auto r = pos.set(sfen.sfen, SfenRules::Relaxed); !r) {
        ParseError e = r.error();
        std::size_t k = std::size_t(std::max(e.column - 1, 0));
        auto [line, col] = k < sfen.where.size() ? sfen.where[k] : std::make_pair(board_line_, 1);
        return unexpected(diagram_error(e.code, e.message, line, col));
    }
    return pos.sfen();
}

Result<void, ParseError> DiagramReader::row(std::size_t li, int rank) {
    std::string_view l = lines_[li];
    int line = int(li) + 1;
    if (rank > 0)
        board_.put("/", line, 1);
    std::size_t at = indent_;
    int empty = 0;
    for (int file = 0; file < 9; ++file) {
        std::size_t next = l.find('|', at + 1);
        if (next == std::string_view::npos)
            return unexpected(diagram_error(ParseErrorCode::BadBoard,
                                            "rank " + std::string(1, char('a' + rank)) + " has " + std::to_string(file)
                                                + " cells, expected 9",
                                            line, int(l.size()) + 1));
        std::string c = trim(l.substr(at + 1, next - at - 1));
        int col = int(at) + 2;
        if (c.empty()) {
            ++empty;
        } else {
            bool promoted = c[0] == '+';
            std::string rest = c.substr(promoted ? 1 : 0);
            if (rest.size() == 3 && rest[1] == '+' && !promoted) {  // "w+L"
                promoted = true;
                rest.erase(1, 1);
            }
            char color = rest.empty() ? ' ' : char(std::tolower(static_cast<unsigned char>(rest[0])));
            PieceType pt = rest.size() == 2 ? piece_from_letter(char(std::toupper(static_cast<unsigned char>(rest[1]))))
                                            : NO_PIECE_TYPE;
            if ((color != 'w' && color != 'b') || pt == NO_PIECE_TYPE || (promoted && !can_promote(pt)))
                return unexpected(diagram_error(
                    ParseErrorCode::BadBoard,
                    "bad cell '" + c + "': expected wX or bX (X one of P L N S G B R K), '+' if promoted", line, col));
            if (empty > 0)
                board_.put(std::to_string(empty), line, col);
            empty = 0;
            char letter = piece_letter(pt);
            board_.put(std::string(promoted ? "+" : "") + (color == 'w' ? char(std::tolower(letter)) : letter), line,
                       col);
        }
        at = next;
    }
    if (empty > 0)
        board_.put(std::to_string(empty), line, int(at) + 1);
    return right_part(li, at + 1, rank);
}

// What stands right of the board on a line: a rank letter, a hand label, a box edge or line.
Result<void, ParseError> DiagramReader::right_part(std::size_t li, std::size_t from, std::optional<int> rank) {
    std::string_view l = lines_[li];
    int line = int(li) + 1;
    std::size_t i = from;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t'))
        ++i;
    if (rank && i < l.size() && l[i] >= 'a' && l[i] <= 'i' && (i + 1 == l.size() || l[i + 1] == ' ')) {
        if (l[i] != 'a' + *rank)
            return unexpected(
                diagram_error(ParseErrorCode::BadBoard,
                              std::string("rank '") + l[i] + "' where rank '" + char('a' + *rank) + "' was expected",
                              line, int(i) + 1));
        ++i;
        while (i < l.size() && (l[i] == ' ' || l[i] == '\t'))
            ++i;
    }
    std::string rest = trim(l.substr(std::min(i, l.size())));
    if (rest.empty() || rest.rfind("+-", 0) == 0)
        return {};
    if (rest.find("White in hand") != std::string::npos || rest.find("Black in hand") != std::string::npos) {
        box_ = rest.find("White in hand") != std::string::npos ? WHITE : BLACK;
        return {};
    }
    if (rest[0] == '|' && rest.size() >= 2 && rest.back() == '|')
        return hand_box(std::string_view(rest).substr(1, rest.size() - 2), line, int(i) + 2);
    return unexpected(diagram_error(ParseErrorCode::BadBoard, "unexpected text right of the board", line, int(i) + 1));
}

Result<void, ParseError> DiagramReader::hand_box(std::string_view inside, int line, int column) {
    for (auto [t, at] : text::words_with_columns(inside, " ,")) {
        int col = column + at - 1;
        if (t != "-" && t != "none") {
            auto tok = hand_token(t);
            if (!tok || !box_)
                return unexpected(diagram_error(ParseErrorCode::BadHand,
                                                !box_
                                                    ? "a hand box without 'White in hand:' or 'Black in hand:' above it"
                                                    : "bad piece in hand '" + std::string(t) + "'",
                                                line, col));
            counts_[*box_][tok->pt] += tok->count;
            hand_where_[*box_][tok->pt] = {line, col};
        }
    }
    return {};
}

// "Black to move (move 12)" anywhere after the board.
void DiagramReader::side_line(std::size_t from) {
    for (std::size_t li = from; li < lines_.size(); ++li) {
        std::string l = lower(trim(lines_[li]));
        bool black = l.rfind("black to ", 0) == 0, white = l.rfind("white to ", 0) == 0;
        if (!black && !white)
            continue;
        side_ = black ? BLACK : WHITE;
        side_line_ = int(li) + 1;
        for (auto m = l.find("move "); m != std::string::npos; m = l.find("move ", m + 1))
            if (m + 5 < l.size() && is_digit(l[m + 5])) {
                int n = 0;  // at most six digits: no overflow
                for (std::size_t k = m + 5; k < l.size() && k < m + 11 && is_digit(l[k]); ++k)
                    n = n * 10 + (l[k] - '0');
                ply_ = std::max(1, n);
            }
        return;
    }
}

// The hands field, each piece at the place in the diagram that gave it.
void DiagramReader::add_hands(SfenBuilder& sfen) const {
    bool any = false;
    for (Color c : {BLACK, WHITE})
        for (PieceType pt : HAND_ORDER)
            if (int n = counts_[c][pt]; n > 0) {
                char letter = piece_letter(pt);
                auto [line, col] = hand_where_[c][pt];
                sfen.put((n > 1 ? std::to_string(n) : "") + (c == WHITE ? char(std::tolower(letter)) : letter), line,
                         col);
                any = true;
            }
    if (!any)
        sfen.put("-", board_line_, 1);
}

}  // namespace

std::string write_diagram(const Position& pos) {
    auto [w1, w2] = hand_lines(pos.hand(WHITE));
    auto [b1, b2] = hand_lines(pos.hand(BLACK));
    // What stands right of border r (above rank r; r = 9 is the bottom) and of rank r, as in
    // the seed: White's box beside ranks a-b, Black's beside ranks h-i.
    std::string after_border[10], after_rank[9];
    after_border[0] = "       White in hand:";
    after_border[1] = "      " + box_line(w1);
    after_border[2] = "      " + BOX_EDGE;
    after_border[7] = "      Black in hand:";
    after_border[8] = "      " + box_line(b1);
    after_border[9] = "      " + BOX_EDGE;
    after_rank[0] = after_rank[7] = "   " + BOX_EDGE;
    after_rank[1] = "   " + box_line(w2);
    after_rank[8] = "   " + box_line(b2);
    std::string out = "   9    8    7    6    5    4    3    2    1\n";
    for (int r = 0; r < 9; ++r) {
        out += BORDER + after_border[r] + "\n|";
        for (int f = FILE_9; f >= FILE_1; --f)
            out += cell(pos.piece_on(make_square(File(f), Rank(r)))) + "|";
        out += "  ";
        out += char('a' + r);
        out += after_rank[r] + "\n";
    }
    out += BORDER + after_border[9] + "\n";
    out += pos.side_to_move() == BLACK ? "Black" : "White";
    out += " to move (move " + std::to_string(pos.game_ply()) + ")\n";
    return out;
}

Result<std::string, ParseError> read_diagram(std::string_view text) {
    DiagramReader reader(text);
    return reader.read();
}

// --- xshogi position files

namespace {

struct PositionLines {
    std::vector<std::string_view> lines;
    std::size_t i = 0;
    // The next line that is neither blank nor a '#' comment, with its 1-based number.
    std::optional<std::pair<std::string_view, int>> next(bool skip_comments) {
        while (i < lines.size()) {
            std::string_view l = lines[i++];
            while (!l.empty() && l.back() == '\r')
                l.remove_suffix(1);
            std::string t = trim(l);
            if (t.empty() || (skip_comments && t[0] == '#'))
                continue;
            return std::make_pair(l, int(i));
        }
        return std::nullopt;
    }
};

ParseError position_error(ParseErrorCode code, std::string message, int line, int column) {
    return ParseError{code, std::move(message), line, column};
}

// " l n s g k g s n l" (a '+' before a promoted piece, '.' for an empty square).
Result<void, ParseError> board_row(std::string_view l, int line, SfenBuilder& b) {
    int squares = 0, empty = 0;
    for (std::size_t j = 0; j < l.size(); ++j) {
        char c = l[j];
        if (is_blank(c))
            continue;
        int col = int(j) + 1;
        bool promoted = c == '+';
        if (promoted && (++j >= l.size() || is_blank(l[j])))
            return unexpected(position_error(ParseErrorCode::BadBoard, "'+' not followed by a piece", line, col));
        c = l[j];
        if (++squares > 9)
            return unexpected(position_error(ParseErrorCode::BadBoard, "more than 9 squares in a row", line, col));
        if (c == '.' && !promoted) {
            ++empty;
            continue;
        }
        PieceType pt = piece_from_letter(char(std::toupper(static_cast<unsigned char>(c))));
        if (pt == NO_PIECE_TYPE)
            return unexpected(
                position_error(ParseErrorCode::BadBoard, std::string("unknown piece '") + c + "'", line, int(j) + 1));
        if (empty > 0)
            b.put(std::to_string(empty), line, col);
        empty = 0;
        b.put(std::string(promoted ? "+" : "") + c, line, col);
    }
    if (squares != 9)
        return unexpected(position_error(ParseErrorCode::BadBoard,
                                         "a row has " + std::to_string(squares) + " squares, expected 9", line,
                                         int(l.size()) + 1));
    if (empty > 0)
        b.put(std::to_string(empty), line, int(l.size()));
    return {};
}

// "0 0 0 0 0 0 0 0": counts of P L N S G B R K in hand.
Result<void, ParseError> hand_line(std::string_view l, int line, bool white, SfenBuilder& b) {
    static constexpr std::string_view ORDER = "PLNSGBRK";
    std::size_t j = 0;
    for (char letter : ORDER) {
        while (j < l.size() && is_blank(l[j]))
            ++j;
        std::size_t k = j;
        while (j < l.size() && is_digit(l[j]) && j - k < 3)
            ++j;
        if (k == j)
            return unexpected(position_error(ParseErrorCode::BadHand,
                                             std::string("hand: expected the count of ") + letter, line, int(k) + 1));
        int n = 0;
        for (std::size_t d = k; d < j; ++d)
            n = n * 10 + (l[d] - '0');
        if (letter == 'K' && n != 0)
            return unexpected(position_error(ParseErrorCode::BadHand, "hand: a king cannot be held", line, int(k) + 1));
        char c = white ? char(std::tolower(letter)) : letter;
        if (n > 0)
            b.put((n > 1 ? std::to_string(n) : "") + c, line, int(k) + 1);
    }
    while (j < l.size() && is_blank(l[j]))
        ++j;
    if (j < l.size())
        return unexpected(position_error(ParseErrorCode::BadHand, "hand: unexpected text", line, int(j) + 1));
    return {};
}

}  // namespace

Result<std::string, ParseError> read_xshogi_position(std::string_view text) {
    PositionLines in;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t nl = std::min(text.find('\n', start), text.size());
        in.lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    SfenBuilder b;
    int last_line = int(in.lines.size());
    for (int rank = 0; rank < 9; ++rank) {
        auto l = in.next(rank == 0);
        if (!l)
            return unexpected(position_error(ParseErrorCode::BadBoard, "expected 9 board rows", last_line, 1));
        if (rank > 0)
            b.put("/", l->second, 1);
        if (auto r = board_row(l->first, l->second, b); !r)
            return unexpected(r.error());
    }
    SfenBuilder hands;
    int hand_line_no = 0;
    for (bool white : {false, true}) {
        auto l = in.next(false);
        if (!l)
            return unexpected(position_error(ParseErrorCode::BadHand, "expected two hand lines", last_line, 1));
        if (auto r = hand_line(l->first, l->second, white, hands); !r)
            return unexpected(r.error());
        hand_line_no = hand_line_no ? hand_line_no : l->second;
    }
    auto side = in.next(false);
    std::string who = side ? lower(trim(side->first)) : "";
    if (!side || (who.rfind("black", 0) != 0 && who.rfind("white", 0) != 0))
        return unexpected(position_error(ParseErrorCode::BadSideToMove, "expected 'black to play' or 'white to play'",
                                         side ? side->second : last_line, 1));
    b.put(who[0] == 'b' ? " b " : " w ", side->second, 1);
    if (hands.sfen.empty())
        hands.put("-", hand_line_no, 1);
    b.put(hands.sfen, 0, 0);
    std::copy(hands.where.begin(), hands.where.end(), b.where.end() - std::ptrdiff_t(hands.where.size()));
    b.put(" 1", side->second, 1);
    Position pos;
    if (auto r = pos.set(b.sfen, SfenRules::Relaxed); !r) {
        ParseError e = r.error();
        std::size_t k = std::min(std::size_t(std::max(e.column - 1, 0)), b.where.size() - 1);
        return unexpected(position_error(e.code, e.message, b.where[k].first, b.where[k].second));
    }
    return pos.sfen();
}

std::string write_xshogi_position(const Position& pos, std::string_view title, PositionFileHeader header) {
    std::string out = "# xshogi position file -- ";
    out += title;
    out += header == PositionFileHeader::Xshogi ? "\n#\n" : "\n\n\n";
    for (int r = RANK_1; r <= RANK_9; ++r) {
        for (int f = FILE_9; f >= FILE_1; --f) {
            Piece pc = pos.piece_on(make_square(File(f), Rank(r)));
            char letter = pc == NO_PIECE ? '.' : piece_letter(type_of(pc));
            out += pc != NO_PIECE && is_promoted(type_of(pc)) ? '+' : ' ';
            out += pc != NO_PIECE && color_of(pc) == WHITE ? char(std::tolower(letter)) : letter;
        }
        out += '\n';
    }
    static constexpr PieceType ORDER[] = {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK};
    for (Color c : {BLACK, WHITE}) {
        for (PieceType pt : ORDER)
            out += std::to_string(pos.hand(c).count(pt)) + " ";
        out += "0\n";
    }
    out += pos.side_to_move() == BLACK ? "black to play\n" : "white to play\n";
    return out;
}

}  // namespace hisha::notation
