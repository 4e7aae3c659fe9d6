// The Content-Security-Policy in a real browser: the app's own scripts run (each page carries a fresh
// nonce), no other inline script does, and the page may connect to its own origin only. Every page
// visited here loads and hydrates without one policy violation.
import { expect, test, type Page } from "./fixtures";
import { people, signUpFirstOrSignIn } from "./helpers";

/** Records every CSP violation the page reports, from its first document on. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.exposeFunction("reportViolation", (v: string) => void violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return violations;
}

test("pages run their own scripts under a nonce and nothing else, and connect only to their origin", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  const violations = await watchViolations(page);

  const first = await page.goto("/signin");
  const second = await page.request.get("/signin");
  const policy = first!.headers()["content-security-policy"];
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  expect(second.headers()["content-security-policy"]).not.toContain(nonce!); // a fresh nonce per response
  const scriptSrc = policy.split(";").find((d) => d.trim().startsWith("script-src"))!;
  expect(scriptSrc).not.toContain("unsafe-inline");
  expect(policy).toMatch(/connect-src 'self'(;|$)/);
  // The inline scripts Next.js wrote carry this response's nonce.
  expect(await page.locator("script:not([src])").count()).toBeGreaterThan(0);
  expect(await page.locator(`script:not([src]):not([nonce])`).count()).toBe(0);

  // The app hydrates and works: sign up (or in), reach #general, over a live socket.
  await signUpFirstOrSignIn(page, people.alice);
  for (const path of ["/inbox", "/agents", "/directory", "/usage", "/admin"]) {
    await page.goto(path);
    await expect(page.getByTestId("user-menu")).toBeVisible();
  }
  await page.goto("/no-such-page");
  await expect(page.getByText(/could not be found|404/i).first()).toBeVisible();
  await page.goto("/");
  await expect(page.getByTestId("room-title")).toHaveText("general");
  expect(violations).toEqual([]);

  // What the policy is for: an injected inline script does not run, and nothing leaves for another host.
  await page.addScriptTag({ content: "window.__injected = true" }).catch(() => {});
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
  await page.evaluate(() => {
    try {
      new WebSocket("ws://127.0.0.2:9/exfiltrate");
    } catch {
      // Chromium may refuse in the constructor; the violation is reported either way.
    }
  });
  await expect.poll(() => violations.join("\n")).toMatch(/connect-src.*127\.0\.0\.2|127\.0\.0\.2.*connect-src/);
  expect(violations.some((v) => /script-src/.test(v))).toBe(true);
  await page.context().close();
});
