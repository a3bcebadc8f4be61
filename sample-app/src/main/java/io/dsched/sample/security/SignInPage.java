package io.dsched.sample.security;

import org.springframework.http.MediaType;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.util.HtmlUtils;

/**
 * The sign-in form, as Spring Security's own but for one thing: it keeps the page a link pointed
 * at. An alert's link into the admin UI names its page in the fragment
 * ({@code /actuator/dsched-ui/#/dead-letters?job=ledgerExport}), which no server sees; the browser
 * carries it through the redirect to this form, and the form's script adds it to the form's
 * address, so that the browser carries it on through the redirect back to the UI after sign-in.
 */
@Controller
class SignInPage {

    static final String PATH = "/login";

    @GetMapping(path = PATH, produces = MediaType.TEXT_HTML_VALUE)
    @ResponseBody
    String page(
            CsrfToken token,
            @RequestParam(name = "error", required = false) String error,
            @RequestParam(name = "logout", required = false) String logout) {
        String notice = (error != null)
                ? "<p class=\"notice error\" role=\"alert\">Bad user name or password.</p>"
                : (logout != null) ? "<p class=\"notice\" role=\"status\">You have signed out.</p>" : "";
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Sign in · dsched sample</title>
                <style>
                body { font: 16px/1.5 system-ui, sans-serif; margin: 0; display: grid; min-height: 100vh; place-items: center; }
                form { display: grid; gap: .75rem; width: min(22rem, 90vw); }
                label { display: grid; gap: .25rem; }
                input, button { font: inherit; padding: .5rem; }
                .error { color: #b00020; }
                </style>
                </head>
                <body>
                <main>
                <h1>Sign in</h1>
                %s
                <form id="sign-in" method="post" action="%s">
                <label>User <input id="username" name="username" autocomplete="username" required autofocus></label>
                <label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
                <input type="hidden" name="%s" value="%s">
                <button type="submit">Sign in</button>
                </form>
                </main>
                <script>
                // the page that a link pointed at, if any, carried on past sign-in (see SignInPage)
                const form = document.getElementById('sign-in');
                if (location.hash.startsWith('#/')) form.action = form.action.split('#')[0] + location.hash;
                </script>
                </body>
                </html>
                """.formatted(
                notice, PATH, HtmlUtils.htmlEscape(token.getParameterName()), HtmlUtils.htmlEscape(token.getToken()));
    }
}
