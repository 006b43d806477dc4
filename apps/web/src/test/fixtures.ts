import type { LoginResult, User } from '@wildtrack/contract';

export function user(overrides: Partial<User> = {}): User {
  return {
    UserId: 7,
    UserIdStr: '7',
    UserName: 'ranger01',
    NickName: 'Ranger One',
    CustomerId: 3,
    CustomerIdStr: '3',
    CustomerName: 'Qinling Reserve',
    ParentUnit: '',
    IsPrimary: true,
    FixTag: 'DEFAULT',
    TelephoneCode: '86',
    Phone: '',
    EMail: 'ranger@example.org',
    ImgUrl: '',
    ExperienceFunc: 1,
    Company: 'Qinling Reserve',
    Lcid: 2052,
    TimeZone: '+08:00',
    SafeSetting: { CountryCode: '86', Phone: '', Email: 'ranger@example.org', PasswordOnly: false },
    ...overrides,
  };
}

export function loginResult(overrides: Partial<LoginResult> = {}, userOverrides: Partial<User> = {}): LoginResult {
  return {
    // In clear here: the fake server (server.ts) seals it to the call's client key, as the server does.
    Token: 'token-abc',
    SessionId: 'session-1',
    UserName: 'ranger01',
    ExperienceFunc: 1,
    Permissions: {
      IsPrimary: true,
      OwnDevices: { EditDevice: true, EditFix: true, RemoteInstr: true, ShareDevice: true, DownloadData: true },
    },
    WeakPassword: false,
    MustChangePassword: false,
    User: user(userOverrides),
    ...overrides,
  };
}
