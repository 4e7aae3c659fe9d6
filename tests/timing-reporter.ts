// Prints, after an integration run, the files that took longest (their tests and hooks, server boots
// included) and what the servers they started cost, so CI's log says where its time goes: CI time is a budget.
import type { Reporter, TestModule } from "vitest/node";
import { serverCpuSummary } from "./integration/server-cpu";
import { stopShared } from "./integration/shared-servers";

export default class TimingReporter implements Reporter {
  private readonly files: { name: string; ms: number; tests: number }[] = [];

  onTestModuleEnd(module: TestModule): void {
    this.files.push({
      name: module.moduleId.replace(`${process.cwd()}/`, ""),
      ms: module.diagnostic().duration,
      tests: [...module.children.allTests()].length,
    });
  }

  async onTestRunEnd(): Promise<void> {
    const rows = this.files.sort((a, b) => b.ms - a.ms);
    const total = rows.reduce((sum, r) => sum + r.ms, 0);
    console.log(`\nSlowest test files (${rows.length} files, ${(total / 1000).toFixed(0)} s in all):`);
    for (const r of rows.slice(0, 15)) console.log(`${(r.ms / 1000).toFixed(1).padStart(7)} s ${String(r.tests).padStart(4)} tests  ${r.name}`);
    await stopShared(); // the workers' shared servers, so that their whole lives are counted (the run's teardown would stop them next)
    const servers = serverCpuSummary();
    if (servers) console.log(servers);
  }
}
