// Shown where a command would name a package this server hands out (GET /install) but has not built.
export function PackagesNotBuilt() {
  return (
    <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200" data-testid="onboarding-not-built">
      This server has not built the packages it hands out: run <code className="font-mono">npm run build</code> where it runs.
    </p>
  );
}
