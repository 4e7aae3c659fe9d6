// Moved to ./icons. These names stay importable from here until the last imports (in
// components/usage and components/agents) point at ./icons.
export {
  KeyIcon,
  ShieldIcon,
  InboxIcon,
  BookIcon,
  PauseIcon,
  PlayIcon,
  PowerIcon,
  DownloadIcon,
  TerminalIcon,
  SettingsIcon,
  ListIcon,
  ClockIcon,
  HandshakeIcon,
  CheckCircleIcon,
  BanIcon,
  FilterIcon,
} from "./icons";
