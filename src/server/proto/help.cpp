// Splits the embedded help file at its header lines ("--    SHOGI RULES",
// "---   BOARD, REFRESH"): a section runs to the next header of the same or a higher level.
#include "server/proto/help.h"

#include <cstring>

#include "core/text.h"

namespace hisha::server::proto {

extern const char HELP_TEXT[];

namespace {

std::vector<HelpTopic> parse_topics(std::string_view text) {
    std::vector<HelpTopic> topics;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        int level = 0;
        while (std::size_t(level) < line.size() && line[std::size_t(level)] == '-')
            ++level;
        // A header: 1-5 dashes, then spaces up to column 6, then a title.
        if (level >= 1 && level <= 5 && line.size() > 6 && line[std::size_t(level)] == ' '
            && line.find_first_not_of(' ', std::size_t(level)) == 6) {
            HelpTopic t;
            t.level = level;
            t.begin = pos;
            std::string_view title = line.substr(6);
            while (!title.empty()) {
                auto comma = title.find(',');
                std::string name = text::trim(title.substr(0, comma));
                if (!name.empty())
                    t.names.push_back(text::upper(name));
                if (comma == std::string_view::npos)
                    break;
                title.remove_prefix(comma + 1);
            }
            if (!t.names.empty())
                topics.push_back(std::move(t));
        }
        pos = eol + 1;
    }
    for (std::size_t i = 0; i < topics.size(); ++i) {
        topics[i].end = text.size();
        for (std::size_t j = i + 1; j < topics.size(); ++j)
            if (topics[j].level <= topics[i].level) {
                topics[i].end = topics[j].begin;
                break;
            }
    }
    return topics;
}

}  // namespace

std::string_view help_text() { return std::string_view(HELP_TEXT, std::strlen(HELP_TEXT)); }

const std::vector<HelpTopic>& help_topics() {
    static const std::vector<HelpTopic> topics = parse_topics(help_text());
    return topics;
}

std::vector<const HelpTopic*> find_help(std::string_view query) {
    std::string q = text::upper(text::trim_view(query));
    std::vector<const HelpTopic*> found;
    if (q.empty())
        return found;
    for (auto& t : help_topics())
        for (auto& n : t.names)
            if (n == q) {
                found.push_back(&t);
                break;
            }
    if (found.empty())
        for (auto& t : help_topics())
            for (auto& n : t.names)
                if (n.find(q) != std::string::npos) {
                    found.push_back(&t);
                    break;
                }
    // Fold sections nested in an earlier match.
    std::vector<const HelpTopic*> out;
    for (auto* t : found) {
        bool inside = false;
        for (auto* o : out)
            inside |= t->begin >= o->begin && t->end <= o->end;
        if (!inside)
            out.push_back(t);
    }
    return out;
}

std::vector<std::string> help_index() {
    std::vector<std::string> out;
    for (auto& t : help_topics()) {
        std::string line(std::size_t(2 * (t.level - 1)), ' ');
        for (std::size_t i = 0; i < t.names.size(); ++i)
            line += (i ? ", " : "") + t.names[i];
        out.push_back(line);
    }
    return out;
}

}  // namespace hisha::server::proto
