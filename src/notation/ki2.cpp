// KI2 reading goes through the Kakinoki reader shared with KIF; writing walks the record in
// KIF's order and lays the moves out as Kifu for Windows does (six to a line, each padded to
// 12 columns), which keeps the output readable by other programs and by people.
#include "ki2.h"

#include <algorithm>

#include "japanese.h"
#include "kif.h"

namespace hisha::notation {

namespace {

class Ki2Writer : public detail::RecordVisitor {
public:
    Ki2Writer(const GameRecord& rec, std::string& out) : rec_(rec), out_(out) {}

    void on_move(const core::Position& before, const MoveRecord& mr, core::Move previous, int,
                 std::int64_t) override {
        std::string token = ki2_move_text(before, mr.move, previous);
        if (in_line_ > 0)
            out_ += std::string(std::size_t(std::max(1, 12 - last_width_)), ' ');
        out_ += token;
        last_width_ = display_width(token);
        if (++in_line_ == 6 || !mr.comments.empty())
            end_line();
        out_ += detail::comment_lines(mr.comments);
    }
    void on_line_end(const core::Position& end, int next_ply, bool main_line,
                     const std::array<std::int64_t, 2>&) override {
        end_line();
        if (!main_line)
            return;
        std::string summary =
            summary_text(rec_.result, next_ply - 1, end.side_to_move(), detail::uses_handicap_names(rec_));
        if (!summary.empty())
            out_ += summary + "\n";
    }
    void on_variation(int ply) override {
        end_line();
        out_ += "\n変化：" + std::to_string(ply) + "手\n";
    }

private:
    void end_line() {
        if (in_line_ > 0)
            out_ += "\n";
        in_line_ = 0;
    }

    const GameRecord& rec_;
    std::string& out_;
    int in_line_ = 0;
    int last_width_ = 0;
};

}  // namespace

Result<GameRecord, ParseError> read_ki2(std::string_view bytes) {
    return detail::read_kakinoki(bytes, detail::KakinokiFormat::Ki2);
}

std::string write_ki2(const GameRecord& rec, Encoding enc) {
    std::string out = std::string("#KI2 version=2.0 encoding=")
                    + (enc == Encoding::Utf8 ? "UTF-8" : enc == Encoding::ShiftJis ? "Shift_JIS" : "EUC-JP") + "\n";
    out += detail::header_block(rec);
    out += detail::comment_lines(rec.start_comments);
    Ki2Writer writer(rec, out);
    detail::walk_record(rec, writer);
    return detail::encode_output(out, enc);
}

}  // namespace hisha::notation
