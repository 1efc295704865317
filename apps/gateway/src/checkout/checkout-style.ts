/** The hosted checkout's stylesheet (served at /checkout/assets/checkout.css; no inline styles on the page). */
export const CHECKOUT_CSS = String.raw`
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:#f3f4f7;color:#1a1f36;
  font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
  display:flex;flex-direction:column;align-items:center;padding:32px 16px}
.card{width:100%;max-width:440px;background:#fff;border-radius:14px;
  box-shadow:0 1px 3px rgba(26,31,54,.08),0 12px 32px rgba(26,31,54,.08);overflow:hidden}
.head{padding:28px 28px 20px;border-bottom:1px solid #eceef3}
.merchant{display:flex;align-items:center;justify-content:space-between;gap:12px;margin:0 0 14px;
  font-size:.875rem;font-weight:600;color:#4f566b;letter-spacing:.01em}
.badge{font-size:.7rem;font-weight:700;text-transform:uppercase;letter-spacing:.06em;color:#8a5a00;
  background:#fff4d6;border:1px solid #f5d58a;border-radius:999px;padding:2px 8px}
h1{font-size:1.25rem;line-height:1.3;margin:0 0 6px}
.description{margin:0 0 12px;color:#4f566b;font-size:.95rem}
.price{font-size:2rem;font-weight:700;letter-spacing:-.02em;margin:8px 0 0}
.price small{font-size:1rem;font-weight:500;color:#4f566b;letter-spacing:0}
.body{padding:24px 28px 28px}
.field{margin:0 0 16px}
.row{display:flex;gap:12px}.row .field{flex:1}
label{display:block;font-size:.875rem;font-weight:600;margin:0 0 6px;color:#30313d}
.hint{display:block;font-size:.8rem;color:#6b7280;margin-top:4px}
input{width:100%;font:inherit;font-size:1rem;padding:11px 12px;border:1px solid #d5d9e2;border-radius:8px;
  background:#fff;color:inherit;transition:border-color .15s,box-shadow .15s}
input:focus{outline:none;border-color:#4f46e5;box-shadow:0 0 0 3px rgba(79,70,229,.2)}
input[aria-invalid="true"]{border-color:#df1b41}
.prefix{position:relative}.prefix span{position:absolute;left:12px;top:50%;transform:translateY(-50%);
  color:#6b7280;pointer-events:none}.prefix input{padding-left:52px}
button{width:100%;font:inherit;font-size:1.05rem;font-weight:600;color:#fff;background:#4f46e5;border:0;
  border-radius:8px;padding:13px 16px;cursor:pointer;margin-top:4px;transition:background .15s}
button:hover{background:#4338ca}
button:focus-visible{outline:3px solid rgba(79,70,229,.45);outline-offset:2px}
button[disabled]{background:#a5a6f6;cursor:progress}
.alert{border-radius:8px;padding:12px 14px;margin:0 0 16px;font-size:.925rem}
.alert.error{background:#fdecef;color:#9c1232;border:1px solid #f7c1cc}
.result{text-align:center;padding:36px 28px 32px}
.result svg{width:56px;height:56px;margin:0 auto 12px;display:block}
.result h2{font-size:1.3rem;margin:0 0 6px}
.result p{margin:0 0 6px;color:#4f566b}
.secure{display:flex;align-items:center;justify-content:center;gap:6px;margin:18px 0 0;font-size:.8rem;color:#6b7280}
.secure svg{width:14px;height:14px}
footer{margin-top:16px;font-size:.8rem;color:#8792a2;text-align:center}
[hidden]{display:none!important}
@media (max-width:480px){body{padding:0;background:#fff}.card{box-shadow:none;border-radius:0}
  .head,.body{padding-left:20px;padding-right:20px}}
`;
