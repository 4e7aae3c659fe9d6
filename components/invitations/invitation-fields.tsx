// Fields for making an invite link or an onboarding token: the role a link gives, how often either may be used.
import { useViewer } from "@/components/providers/viewer-provider";
import { TextInput, inputClass } from "@/components/ui/field";
import { MAX_USES } from "@switchboard/sdk/admin";

export type InviteRole = "member" | "admin" | "guest";

export const ROLE_LABEL: Record<InviteRole, string> = { member: "Member", admin: "Admin", guest: "Guest" };

/** The roles the viewer may give by invite link: admin only for whoever may make admins (the owner). */
export function RoleSelect({ value, onChange, testId }: { value: InviteRole; onChange: (role: InviteRole) => void; testId: string }) {
  const { can } = useViewer();
  const roles = (Object.keys(ROLE_LABEL) as InviteRole[]).filter((role) => role !== "admin" || can.inviteAdmins);
  return (
    <select value={value} onChange={(e) => onChange(e.target.value as InviteRole)} className={inputClass} data-testid={testId}>
      {roles.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABEL[role]}
        </option>
      ))}
    </select>
  );
}

/** The number of uses as typed; empty means no limit. */
export function MaxUsesInput({
  value,
  onChange,
  placeholder,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId: string;
}) {
  return (
    <TextInput type="number" min={1} max={MAX_USES} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} data-testid={testId} />
  );
}

/** The create input's `maxUses` for what MaxUsesInput holds: none when it is empty. */
export function maxUsesOf(value: string): { maxUses?: number } {
  const uses = value.trim() ? Number(value) : undefined;
  return uses ? { maxUses: uses } : {};
}
