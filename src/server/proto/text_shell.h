// The text protocol (telnet-friendly, Shoogi Server's command set) as a line-in, text-out
// state machine: the network session feeds it lines and writes what it emits. Commands are a
// data table (name, abbreviations, whether login is needed, handler, usage); prompts for
// confirmation (PLAY <p,o,n,y>, RESIGN yes, leaving a message) and the more-prompt of MOVES
// and HELP are states of the shell.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/proto/board.h"
#include "server/proto/shell.h"

namespace hisha::server::proto {

class TextShell : public Shell, public std::enable_shared_from_this<TextShell> {
public:
    using Shell::Shell;
    ~TextShell() override;

    void start() override;  // greeting and prompt
    void on_line(std::string_view line) override;
    void on_line_too_long() override;
    void on_disconnect() override;
    void deliver(const service::Event& e) override;
    bool logged_in() const { return !user_.empty(); }
    const std::string& user() const { return user_; }
    int page_lines = 20;  // the more-prompt's screenful

    struct Command;

    using Args = std::vector<std::string>;

    // --- commands (the handlers of the command table)
    void cmd_login(const Args& a);
    void cmd_register(const Args& a);
    void cmd_password(const Args& a);
    void cmd_quit(const Args& a);
    void cmd_board(const Args& a);
    void cmd_moves(const Args& a);
    void cmd_games(const Args& a);
    void cmd_stat(const Args& a);
    void cmd_new(const Args& a);
    void cmd_remove(const Args& a);
    void cmd_play(const Args& a);
    void cmd_handicap(const Args& a);
    void cmd_resign(const Args& a);
    void cmd_undo(const Args& a);
    void cmd_if(const Args& a);  // text_shell_conditional.cpp
    // text_shell_pauses.cpp
    void cmd_vacation(const Args& a);
    void cmd_adjourn(const Args& a);
    void cmd_resume(const Args& a);
    void cmd_decline(const Args& a);
    void cmd_say(const Args& a);
    void cmd_shout(const Args& a);
    void cmd_tell(const Args& a);
    void cmd_user(const Args& a);
    void cmd_who(const Args& a);
    void cmd_set(const Args& a);
    void set_mail(const Args& a);  // SET EMAIL and SET MAIL (text_shell_mail.cpp)
    void cmd_help(const Args& a);
    void cmd_patterns(const Args& a);
    void cmd_shell(const Args& a);
    void cmd_declare(const Args& a);
    void cmd_watch(const Args& a);
    void cmd_admin(const Args& a);  // text_shell_admin.cpp, one member per action:
    void admin_ban(const Args& a, const service::AdminActor& me);
    void admin_unban(const Args& a, const service::AdminActor& me);
    void admin_bans(const Args& a, const service::AdminActor& me);
    void admin_kick(const Args& a, const service::AdminActor& me);
    void admin_abort(const Args& a, const service::AdminActor& me);
    void admin_adjudicate(const Args& a, const service::AdminActor& me);
    void admin_announce(const Args& a, const service::AdminActor& me);
    void admin_reset_password(const Args& a, const service::AdminActor& me);
    void admin_listing(const Args& a, const service::AdminActor& me);  // CONNECTIONS, QUEUES, AUDIT
    /// The game number of ADMIN ABORT|ADJUDICATE <gid> (a[2]); none, with the usage line
    /// ADMIN_USAGE[usage] or the error, when there are fewer than `words` words or no number.
    std::optional<std::int64_t> admin_game_number(const Args& a, std::size_t words, std::size_t usage);

private:
    enum class Mode { Command, ConfirmPlay, Promote, ConfirmResign, LeaveMessage, More };

    // --- helpers
    void farewell(const std::string& why) override;
    void dispatch(std::string_view line);
    void answer(std::string_view line);                                    // a reply in one of the prompt modes
    void leave_prompt(const std::string& message, std::string_view line);  // not a reply: a command
    void answer_play(const std::string& a, std::string_view line);         // a: the reply upper-cased
    void answer_promote(std::string a, std::string_view line);
    void answer_resign(const std::string& a, std::string_view line);
    void answer_message(const std::string& a, std::string_view line);
    void answer_more(const std::string& a, std::string_view line);
    void send(std::string_view text);  // as is
    void line(std::string_view text);  // plus CR LF
    void error(std::string_view text);
    void prompt();
    void page(std::vector<std::string> lines, std::function<void()> done = {});
    void more();
    /// LOGIN or REGISTER <name> <password>: the service checks it off the loop.
    void log_in(const Args& a, bool registering);
    void after_login(const UserRow& u);
    /// The command waits for a password check: the next lines wait too (and events are held)
    /// until `then` has run with its answer; the prompt follows it.
    service::AuthDone when_answered(std::function<void(const service::AuthReply&)> then);
    void end_command();  // held events, then the prompt
    std::optional<std::int64_t> game_arg(const Args& a, std::size_t i);
    /// The game of BOARD [-o] [gid] and MOVES [-n] [gid]: `flagged` tells whether `flag` came
    /// first. None (the error said) when there is no such game.
    const service::LiveGame* game_after_flag(const Args& a, std::string_view flag, bool& flagged);
    bool load_current(bool need_own);
    void show_board(std::int64_t gid, bool other_view);
    /// ADJOURN (0), RESUME (1) or DECLINE (2) in game a[1] or the current one.
    void agreement(const Args& a, int which);
    /// What BOARD says of a game's adjournment, offer and vacations ("" when nothing); STAT's tag.
    std::string pause_text(const service::LiveGame& g);
    std::string pause_tag(const service::LiveGame& g);
    std::string board_text(const core::Position& pos, bool from_white) const;
    BoardStyle board_style() const;
    bool my_view_is_white(const service::LiveGame& g) const;
    void do_play();
    void send_message(const std::string& to, std::int64_t gid, const std::string& text);
    std::string rest_of(std::string_view line, std::size_t words) const;
    std::string encode(std::string text) const;         // SET KANJI output encoding
    std::string notice(const std::string& text) const;  // a check notice in the PSTYLE piece names

    std::string user_;
    Mode mode_ = Mode::Command;
    std::string raw_line_;         // the line being dispatched (for message text)
    std::int64_t current_ = 0;     // the current game
    bool loaded_ = false;          // all its moves were shown (BOARD, or MOVES to the end)
    core::Move pending_board_;     // PLAY waiting for confirmation: a board move (none: a handicap)
    std::string pending_move_;     // ... or a handicap removal
    std::string pending_display_;  // its 003 spelling
    core::Move pending_promote_;   // PLAY waiting for a promotion answer
    std::string pending_to_;       // TELL/SAY waiting for "leave a message?"
    std::int64_t pending_gid_ = 0;
    std::string pending_text_;
    std::vector<std::string> pager_;  // the more-prompt
    std::size_t pager_pos_ = 0;
    std::function<void()> pager_done_;
    std::int64_t pager_gid_ = 0;
    bool busy_ = false;     // inside a command (or waiting for its answer): events wait for the reply
    bool in_line_ = false;  // inside on_line
    bool waiting_ = false;  // for a password check's answer
    std::string deferred_;
};

/// The command table (for HELP and the tests): name, abbreviations, usage.
struct TextCommandInfo {
    const char* name;
    const char* aliases;
    const char* usage;
};
std::vector<TextCommandInfo> text_commands();

}  // namespace hisha::server::proto
