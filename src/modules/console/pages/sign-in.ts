import { html } from "../../../platform/http/html.js";
import { consoleBase, page } from "../layout.js";

/** why the form is shown again: nothing, a refusal (saying nothing of which part was wrong), or a wait */
export type SignInState = "form" | "refused" | { retryAfter: number };

const waitText = (seconds: number) =>
  seconds < 90 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.ceil(seconds / 60)} minutes`;

/** the sign-in form */
export function signInPage(tenant: string, state: SignInState = "form"): string {
  const message =
    state === "form"
      ? ""
      : state === "refused"
        ? html`<p class="message error" role="alert">The username or password is not right, or the account cannot sign in now.</p>`
        : html`<p class="message error" role="alert">Too many sign-in attempts. Try again in ${waitText(state.retryAfter)}.</p>`;
  return page(
    { tenant },
    "Sign in",
    html`<div class="signin card">
      ${message}
      <form method="post" action="${consoleBase(tenant)}/sign-in">
        <label>Username <input name="username" autocomplete="username" required autofocus></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
        <button type="submit">Sign in</button>
      </form>
    </div>`,
  );
}
