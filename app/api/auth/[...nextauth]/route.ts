// Auth.js's endpoints (sign-in, sign-out, session, CSRF) under /api/auth.
import { handlers } from "@/server/auth/config";

export const { GET, POST } = handlers;
