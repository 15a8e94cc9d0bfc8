/// `count` and `noun`, in the plural unless it is 1 ("1 frame", "2 frames"); `plural` for a
/// noun that takes more than an s.
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
