import { searchMessagesInput } from "@switchboard/sdk/search";
import * as search from "../../services/search/search";
import { authedProcedure, router } from "../init";

export const searchRouter = router({
  /** Messages the caller may read that match a query (words, "phrases", -words, in:, from:, mentions:me, is:thread, has:link, before:, after:, on:). */
  messages: authedProcedure.input(searchMessagesInput).query(({ ctx, input }) => search.searchMessages(ctx.actor, input)),
});
