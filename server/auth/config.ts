// Auth.js (next-auth v5): email + password sign-in with JWT sessions (Auth.js allows credentials only
// with JWT). The same session cookie authenticates tRPC and the browser's socket (see ./session.ts).
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { AppError } from "../errors";
import { ADDRESS_HEADER } from "../http/client-address";
import { checkCredentials } from "../services/identity/accounts";
import { EMAIL_MAX, PASSWORD_MAX } from "@switchboard/sdk/contract";

/**
 * Too many failed sign-ins for this email, or attempts from this address: the browser gets
 * `code=rate_limited` and says so, instead of "wrong password" for the right one. It reveals nothing
 * about the account: unknown emails are counted and blocked the same way.
 */
export class SignInRateLimited extends CredentialsSignin {
  code = "rate_limited";
}

const credentials = z.object({ email: z.string().email().max(EMAIL_MAX), password: z.string().min(1).max(PASSWORD_MAX) });

export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

export const { handlers, auth, signIn, signOut } = NextAuth({
  trustHost: true,
  logger: {
    // A wrong password is routine (and audited); only real failures belong in the error log.
    error(error) {
      if (error.name === "CredentialsSignin" || (error as { type?: string }).type === "CredentialsSignin") return;
      console.error("[auth]", error);
    },
  },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/signin" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw, request) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        // server/app.ts stamps every request with its client's address before Next.js sees it.
        const address = request.headers.get(ADDRESS_HEADER);
        try {
          return await checkCredentials(parsed.data.email, parsed.data.password, address);
        } catch (error) {
          if (error instanceof AppError && error.code === "RATE_LIMITED") throw new SignInRateLimited();
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});
