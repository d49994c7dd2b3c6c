import { html } from "../../../platform/http/html.js";
import { consoleBase, page } from "../layout.js";

/** the sign-in form; after a failure, a message that says nothing of which part was wrong */
export function signInPage(tenant: string, failed: boolean): string {
  return page(
    { tenant },
    "Sign in",
    html`<div class="signin card">
      ${failed ? html`<p class="message error" role="alert">The username or password is not right, or the account cannot sign in now.</p>` : ""}
      <form method="post" action="${consoleBase(tenant)}/sign-in">
        <label>Username <input name="username" autocomplete="username" required autofocus></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
        <button type="submit">Sign in</button>
      </form>
    </div>`,
  );
}
