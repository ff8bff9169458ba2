// The text protocol's mail settings (issue 20, service/mail.h), where the server's operator
// configured SMTP: SET EMAIL shows them, SET EMAIL ADDRESS gives an address (a confirmation link
// is mailed to it; nothing else goes there until it is opened), SET EMAIL - forgets it, SET MAIL
// KINDS|NONE chooses what is mailed (turn, challenge, end, message).
#include "core/text.h"
#include "server/proto/text_shell.h"
#include "server/service/mail.h"

namespace hisha::server::proto {

void TextShell::set_mail(const Args& a) {
    service::Mail* mail = svc_.mail();
    if (!mail)
        return error("this server sends no mail (its operator has not configured SMTP)");
    std::string what = text::upper(a[1]);
    service::Reply<service::MailSettings> s = mail->settings(user_);
    if (what == "EMAIL" && a.size() > 2)
        s = mail->set_address(user_, a[2] == "-" ? std::string() : a[2]);
    else if (what == "MAIL" && a.size() > 2) {
        std::vector<std::string> kinds;
        std::string list = text::lower(a[2]);
        if (list != "none")
            for (const auto& k : text::words_with_columns(list, ","))
                kinds.emplace_back(k.text);
        s = mail->set_kinds(user_, kinds);
    }
    if (!s)
        return error(s.error());
    std::string kinds;
    for (const auto& k : s->kinds)
        kinds += (kinds.empty() ? "" : ",") + k;
    if (s->address.empty())
        line("EMAIL  none: nothing is mailed (SET EMAIL name@example.org)");
    else if (!s->confirmed)
        line("EMAIL  " + s->address + ": a confirmation link was mailed there; open it, then mail goes there");
    else
        line("EMAIL  " + s->address + " (confirmed)");
    line("MAIL   " + (kinds.empty() ? std::string("none") : kinds) + " (SET MAIL turn,challenge,end,message or NONE)");
}

}  // namespace hisha::server::proto
