import type { Lang } from './lang.js';

/**
 * Every message the server can put in `Msg`, and the validation messages the web forms show, in both
 * languages. The web loads this catalogue into i18next under the `contract` namespace, so a text is
 * written once. `{field}`, `{minutes}` and the like are interpolated.
 */
export const MESSAGES = {
  'ok': { zh: '操作成功', en: 'Operation successful' },
  'failed': { zh: '操作失败', en: 'Operation failed' },
  'error.server': { zh: '服务器内部错误，请稍后重试（请求编号 {requestId}）', en: 'Internal server error, please try again later (request id {requestId})' },
  'error.notFound': { zh: '请求的接口不存在：{path}', en: 'No such interface: {path}' },
  'error.tooLarge': { zh: '请求内容过大（上限 {limit}）', en: 'Request body too large (limit {limit})' },
  'error.badUrl': { zh: '请求地址不是有效的 URL', en: 'The address is not a valid URL' },
  'error.badJson': { zh: '请求内容不是有效的 JSON', en: 'The request body is not valid JSON' },
  'error.unsupportedMedia': { zh: '不支持的内容类型：{type}', en: 'Unsupported content type: {type}' },
  'error.missingHeaders': { zh: '请求缺少签名头：{headers}', en: 'The request lacks signature headers: {headers}' },
  'error.staleTimestamp': { zh: '请求时间戳已过期或无效，请校准本机时间', en: 'The request timestamp is stale or invalid; check this computer\'s clock' },
  'error.replayed': { zh: '重复的请求已被拒绝', en: 'A repeated request was refused' },
  'error.badSignature': { zh: '请求签名无效，内容可能被篡改', en: 'Invalid request signature; the request may have been tampered with' },
  'error.badCiphertext': { zh: '加密字段 {field} 无法解密', en: 'The encrypted field {field} could not be decrypted' },
  'error.sessionExpired': { zh: '登录已过期，请重新登录', en: 'Your session has expired, please sign in again' },
  'error.forbidden': { zh: '没有权限执行此操作', en: 'You do not have permission for this operation' },
  'auth.failed': { zh: '账号或密码错误', en: 'Incorrect account or password' },
  'auth.locked': { zh: '登录失败次数过多，账号已锁定，请 {minutes} 分钟后再试', en: 'Too many failed sign-ins; the account is locked, try again in {minutes} minutes' },
  'validation.field': { zh: '{field}：{message}', en: '{field}: {message}' },
  'validation.required': { zh: '不能为空', en: 'is required' },
  'validation.invalidType': { zh: '类型不正确，应为 {expected}', en: 'has the wrong type, expected {expected}' },
  'validation.invalidValue': { zh: '取值无效', en: 'has an invalid value' },
  'validation.tooSmall': { zh: '不能小于 {minimum}', en: 'must not be less than {minimum}' },
  'validation.tooBig': { zh: '不能大于 {maximum}', en: 'must not be greater than {maximum}' },
  'validation.tooShort': { zh: '长度不能少于 {minimum}', en: 'must be at least {minimum} long' },
  'validation.tooLong': { zh: '长度不能超过 {maximum}', en: 'must be at most {maximum} long' },
  'validation.unknownKeys': { zh: '包含未知字段 {keys}', en: 'contains unknown fields {keys}' },
  'validation.body': { zh: '请求内容', en: 'request body' },
  'validation.timeZone': { zh: '时区格式应为 +08:00，范围 -12:00 至 +12:00', en: 'time zone must look like +08:00, between -12:00 and +12:00' },
  'validation.password.length': { zh: '密码长度为 8-16 位', en: 'password must be 8-16 characters' },
  'validation.password.rule': { zh: '密码须包含大写字母、小写字母和数字，可含特殊字符', en: 'password needs an upper-case letter, a lower-case letter and a digit; special characters are optional' },
  'validation.password.simple': { zh: '您的密码过于简单，请尽快修改', en: 'Your password is too simple; please change it soon' },
  'validation.accountName.start': { zh: '账号须以字母开头', en: 'account name must start with a letter' },
  'validation.accountName.length': { zh: '账号长度为 6-30 位', en: 'account name must be 6-30 characters' },
  'validation.accountName.chars': { zh: '账号只能包含字母、数字和符号', en: 'account name may hold only letters, digits and symbols' },
  'validation.accountName.at': { zh: '账号不能包含 @', en: 'account name must not contain @' },
  'validation.email.invalid': { zh: '邮箱格式不正确', en: 'e-mail address is not valid' },
  'validation.email.length': { zh: '邮箱长度不能超过 40 位', en: 'e-mail must be at most 40 characters' },
  'validation.phone.invalid': { zh: '请输入 11 位手机号码', en: 'enter an 11-digit mobile number starting with 1' },
  'validation.code.invalid': { zh: '验证码为 4 位数字', en: 'the verification code is 4 digits' },
  'validation.nickname.required': { zh: '昵称不能为空', en: 'nickname is required' },
  'validation.nickname.length': { zh: '昵称过长', en: 'nickname is too long' },
  'validation.lcid': { zh: '语言只能是 2052 或 1033', en: 'language must be 2052 or 1033' },
  'validation.folderName.required': { zh: '请输入文件夹名称', en: 'enter a folder name' },
  'validation.folderName.length': { zh: '文件夹名称不能超过 40 个字符', en: 'folder name must be at most 40 characters' },
  'validation.remarkName.length': { zh: '备注名不能超过 40 个字符', en: 'remark name must be at most 40 characters' },
  'validation.measure.positive': { zh: '须为正数', en: 'must be a positive number' },
  'validation.customField.name': { zh: '字段名不能为空', en: 'the field name must not be empty' },
  'validation.customField.duplicate': { zh: '字段名不能重复', en: 'the field name is used twice' },
  'validation.longitude': { zh: '经度范围为 -180 至 180', en: 'longitude must be between -180 and 180' },
  'validation.latitude': { zh: '纬度范围为 -90 至 90', en: 'latitude must be between -90 and 90' },
  'validation.time': { zh: '时间格式应为 YYYY-MM-DD HH:mm:ss', en: 'time must look like YYYY-MM-DD HH:mm:ss' },
  'device.notFound': { zh: '设备不存在', en: 'No such device' },
  'device.readOnly': { zh: '体验设备只能修改备注名', en: 'Experience devices allow only a remark-name change' },
  'device.noEditRight': { zh: '没有编辑该设备的权限', en: 'You do not have the right to edit this device' },
  'device.secondLevelPhone': { zh: '手机不支持秒级定位', en: 'Phones do not take second-level fixes' },
  'device.wrongSpecies': { zh: '该设备的物种类型不是{species}', en: 'This device is not fitted to a {species}' },
  'folder.notFound': { zh: '文件夹不存在', en: 'No such folder' },
  'folder.notEmpty': { zh: '文件夹中有设备，不能删除', en: 'The folder holds devices and cannot be deleted' },
  'folder.cycle': { zh: '不能把文件夹移动到它自己或它的子文件夹下', en: 'A folder cannot move into itself or a folder below it' },
  'folder.readOnly': { zh: '体验设备文件夹不能编辑，也不能作为移动目标', en: 'The experience folder cannot be edited or chosen as a target' },
  'folder.sharedReadOnly': { zh: '共享设备文件夹不能编辑，也不能作为移动目标', en: 'A folder of shared devices cannot be edited or chosen as a target' },
  'ws.gnss.interval': { zh: '每 {minutes} 分钟定位一次', en: 'A fix every {minutes} min' },
  'ws.gnss.hours': { zh: '在 {hours} 定位', en: 'Fixes at {hours}' },
  'ws.gnss.adaptiveHigh': { zh: '电压自适应（高频）：按电量每 {high} / {medium} / {low} 分钟定位', en: 'Voltage-adaptive, high frequency: a fix every {high} / {medium} / {low} min by battery level' },
  'ws.gnss.adaptiveLow': { zh: '电压自适应（低频）：按电量每天 {high} / {medium} / {low} 次定位', en: 'Voltage-adaptive, low frequency: {high} / {medium} / {low} fixes a day by battery level' },
  'ws.acc.off': { zh: '加速度采集关闭', en: 'Acceleration off' },
  'ws.acc.on': { zh: '加速度 {hz} Hz，每 {minutes} 分钟采集一次', en: 'Acceleration at {hz} Hz every {minutes} min' },
  'ws.acc.follow': { zh: '加速度 {hz} Hz，随定位采集', en: 'Acceleration at {hz} Hz with each fix' },
  'ws.postback.hours': { zh: '在 {hours} 回传数据', en: 'Sends data at {hours}' },
  'ws.postback.count': { zh: '每 {count} 条数据回传一次', en: 'Sends data every {count} records' },
  'ws.postback.realtime': { zh: '实时回传', en: 'Sends data in real time' },
  'tree.root': { zh: '设备列表', en: 'Device list' },
  'tree.experience': { zh: '体验设备', en: 'Experience devices' },
  'tree.sharedBy': { zh: '{name} 共享的设备', en: 'Shared by {name}' },
  'upload.notMultipart': { zh: '请以 multipart/form-data 上传文件', en: 'Send the file as multipart/form-data' },
  'upload.noFile': { zh: '没有收到文件', en: 'No file was received' },
  'upload.wrongType': { zh: '只能上传 jpg、jpeg 或 png 图片', en: 'Only jpg, jpeg or png images can be uploaded' },
  'upload.tooLarge': { zh: '图片不能超过 20 MB', en: 'The image must be under 20 MB' },
  'upload.notFound': { zh: '文件不存在', en: 'No such file' },
  'species.bird': { zh: '鸟类', en: 'bird' },
  'species.beast': { zh: '兽类', en: 'beast' },
  'species.other': { zh: '其他物种', en: 'other species' },
  'field.account': { zh: '账号', en: 'account' },
  'field.pwd': { zh: '密码', en: 'password' },
  'field.timeZone': { zh: '时区', en: 'time zone' },
  'field.lcid': { zh: '语言', en: 'language' },
  'field.userName': { zh: '账号', en: 'account name' },
  'field.email': { zh: '邮箱', en: 'e-mail' },
  'field.phone': { zh: '手机号', en: 'phone' },
  'field.code': { zh: '验证码', en: 'verification code' },
  'field.nickName': { zh: '昵称', en: 'nickname' },
  'field.name': { zh: '名称', en: 'name' },
  'field.id': { zh: '编号', en: 'id' },
  'field.parentId': { zh: '上级文件夹', en: 'parent folder' },
  'field.folderId': { zh: '文件夹', en: 'folder' },
  'field.imei': { zh: 'IMEI', en: 'IMEI' },
  'field.imeis': { zh: 'IMEI 列表', en: 'IMEI list' },
  'field.remarkName': { zh: '备注名', en: 'remark name' },
  'field.enabled': { zh: '开关', en: 'switch' },
  'field.caption': { zh: '设备名称', en: 'device name' },
  'field.description': { zh: '描述', en: 'description' },
  'field.speciesType': { zh: '物种类型', en: 'species type' },
  'field.status': { zh: '状态', en: 'status' },
  'field.currentPage': { zh: '页码', en: 'page' },
  'field.pageSize': { zh: '每页条数', en: 'page size' },
  'field.Name': { zh: '字段名', en: 'field name' },
  'field.Value': { zh: '字段值', en: 'field value' },
  'field.Weight': { zh: '体重', en: 'weight' },
  'field.ReleaseLon': { zh: '释放经度', en: 'release longitude' },
  'field.ReleaseLat': { zh: '释放纬度', en: 'release latitude' },
  'field.CaptureTime': { zh: '捕获时间', en: 'capture time' },
  'field.MountTime': { zh: '佩戴时间', en: 'mount time' },
  'field.ReleaseTime': { zh: '释放时间', en: 'release time' },
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

/** Formats a catalogue message; unknown keys come back unchanged so a raw text can pass through. */
export function message(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const template: string = isMessageKey(key) ? MESSAGES[key][lang] : key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** The catalogue of one language as a flat key → text map (i18next resource form, {{x}} placeholders). */
export function messageResources(lang: Lang): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, texts] of Object.entries(MESSAGES)) out[key] = texts[lang].replace(/\{(\w+)\}/g, '{{$1}}');
  return out;
}
