// The text protocol's IF (CONDITIONAL): the conditional moves of the player in the current
// game (service/conditional.h), in the tree's text form:
//   IF                       show them
//   IF 3c3d 2g2f (8c8d 2f2e) store "if 3c3d, I reply 2g2f; then if 8c8d, 2f2e" (USI)
//   IF -                     remove them
#include "server/proto/text_shell.h"

namespace hisha::server::proto {

namespace {
// The branches' text without the tree's ply.
std::string branches_text(const service::ConditionalTree& t) {
    std::string text = service::write_conditional(t);
    std::size_t space = text.find(' ');
    return space == std::string::npos ? "" : text.substr(space + 1);
}
}  // namespace

void TextShell::cmd_if(const Args& a) {
    if (!load_current(true))
        return;
    std::string game = std::to_string(current_);
    if (a.size() == 1) {
        auto t = svc_.conditional(user_, current_);
        if (!t)
            return error(t.error());
        return line(t->empty() ? "No conditional moves in game " + game + "."
                               : "Conditional moves in game " + game + ": " + branches_text(*t));
    }
    if (a.size() == 2 && a[1] == "-") {
        if (auto r = svc_.clear_conditional(user_, current_); !r)
            return error(r.error());
        return line("Conditional moves of game " + game + " removed.");
    }
    std::string tree = rest_of(raw_line_, 1);
    auto read = service::read_conditional("0 " + tree);
    if (!read || read->empty())
        return error("usage: IF <his move> <your reply> [(<his move> <your reply> ...)] ... | IF - (USI moves)");
    auto t = svc_.set_conditional(user_, current_, std::move(read->branches));
    if (!t)
        return error(t.error());
    line("Conditional moves in game " + game + ": " + branches_text(*t));
}

}  // namespace hisha::server::proto
