// The e2e tests' `test`: Playwright's, with the browser contexts a test opens closed when it ends.
// A context left open keeps its pages and sockets alive through every later test in the worker; closing
// them here means no test has to remember to.
import { test as base } from "@playwright/test";

export * from "@playwright/test";

export const test = base.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});
