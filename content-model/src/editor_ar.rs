//! The editor's labels in Arabic: `/ar/admin/content` asks for its configuration in Arabic
//! (`GET /api/admin/content/config?lang=ar`), and every collection, file and field label is
//! given here by the model's field name. A name added to the model without its Arabic label
//! fails `every_label_of_the_editor_has_its_arabic`.

use serde_json::Value;

/// The Arabic label of a collection, file or field, by its name.
pub fn label(name: &str) -> Option<&'static str> {
    Some(match name {
        // Collections and files.
        "blog" => "المدونة",
        "resources" => "الموارد",
        "services" => "الخدمات",
        "events" => "الفعاليات",
        "pages" => "الصفحات",
        "about" => "صفحة «من أنا»",
        "about_ar" => "صفحة «من أنا» (بالعربية)",
        "policies" => "السياسات",
        "faqs" => "الأسئلة الشائعة",
        "testimonials" => "آراء العملاء",
        "logos" => "الشعارات",
        "packages" => "الباقات",
        "videos" => "الفيديوهات",
        "settings" => "الإعدادات",
        // Fields.
        "account_name" => "اسم الحساب",
        "achievements" => "الإنجازات",
        "address" => "العنوان البريدي",
        "answer" => "الإجابة",
        "bank" => "البنك",
        "base_url" => "عنوان الموقع الأساسي",
        "benefits" => "المزايا",
        "body" => "النص",
        "booking_url" => "رابط الحجز",
        "brochure_url" => "رابط الكتيّب",
        "business" => "بيانات النشاط التجاري",
        "button_link" => "رابط الزر",
        "button_text" => "نص الزر",
        "category" => "التصنيف",
        "certifications" => "الشهادات",
        "client_company" => "شركة العميل",
        "client_name" => "اسم العميل",
        "client_title" => "منصب العميل",
        "company_name" => "اسم الشركة",
        "contact_info" => "بيانات التواصل",
        "content" => "المحتوى",
        "created_at" => "تاريخ الإنشاء",
        "credential_note" => "ملاحظة الاعتماد المهني",
        "credentials" => "الاعتمادات المهنية",
        "credits" => "الأرصدة",
        "cta" => "زر الدعوة إلى الإجراء",
        "currency" => "العملة",
        "default_validity_months" => "مدة الصلاحية الافتراضية (بالأشهر)",
        "description" => "الوصف",
        "discovery_call_url" => "رابط مكالمة التعارف",
        "display_order" => "ترتيب العرض",
        "duration" => "المدة",
        "email" => "البريد الإلكتروني",
        "event_date" => "تاريخ الفعالية",
        "event_time" => "وقت الفعالية",
        "excerpt" => "المقتطف",
        "featured_image_url" => "رابط الصورة الرئيسية",
        "features" => "المميزات",
        "hero_section" => "القسم الرئيسي في الصفحة الأولى",
        "hero_subtitle" => "العنوان الفرعي الرئيسي",
        "hero_title" => "العنوان الرئيسي",
        "host_name" => "اسم المقدِّم",
        "iban" => "رقم الحساب الدولي (IBAN)",
        "id" => "المعرِّف",
        "image_url" => "رابط الصورة",
        "instagram" => "Instagram",
        "instalments_from" => "التقسيط للباقات ابتداءً من سعر",
        "instapay" => "InstaPay",
        "intro" => "المقدمة",
        "is_active" => "معروضة للشراء",
        "is_featured" => "مميَّز",
        "is_published" => "منشور",
        "issuer" => "الجهة المانحة",
        "item" => "عنصر",
        "items" => "العناصر",
        "languages" => "اللغات",
        "lapse_days" => "مهلة التحويل قبل إلغاء الطلب (بالأيام)",
        "link" => "الرابط",
        "linkedin" => "LinkedIn",
        "location" => "المكان",
        "location_type" => "نوع المكان",
        "logo_url" => "رابط الشعار",
        "max_participants" => "الحد الأقصى للمشاركين",
        "meta_description" => "الوصف لمحركات البحث",
        "mission" => "الرسالة",
        "name" => "الاسم",
        "package_type" => "نوع الباقة",
        "partner_label" => "اسم الشريك",
        "partner_url" => "رابط الشريك",
        "payment_methods" => "طرق الدفع",
        "payments" => "المدفوعات",
        "paymob" => "Paymob",
        "paytabs" => "PayTabs",
        "phone" => "الهاتف",
        "photo" => "صورة",
        "photos" => "الصور",
        "portrait_url" => "رابط الصورة الشخصية",
        "price" => "السعر",
        "primary_cta" => "الزر الأساسي",
        "published_at" => "تاريخ النشر",
        "question" => "السؤال",
        "rating" => "التقييم",
        "read_time_minutes" => "مدة القراءة (بالدقائق)",
        "registration_url" => "رابط التسجيل",
        "required_translations" => "اللغات التي تلزم ترجمتها",
        "scheduling" => "المواعيد",
        "secondary_cta" => "الزر الثانوي",
        "sessions" => "الجلسات",
        "short_description" => "وصف قصير",
        "site_info" => "بيانات الموقع",
        "site_name" => "اسم الموقع",
        "social_media" => "وسائل التواصل الاجتماعي",
        "subtitle" => "العنوان الفرعي",
        "success_rate" => "نسبة النجاح",
        "tags" => "الوسوم",
        "tax_id" => "الرقم الضريبي",
        "testimonial_text" => "نص الشهادة",
        "text" => "النص",
        "thumbnail" => "الصورة المصغَّرة",
        "tiktok" => "TikTok",
        "time_zone" => "المنطقة الزمنية",
        "title" => "العنوان",
        "transfer" => "التحويل عبر InstaPay أو البنك",
        "updated_at" => "تاريخ التحديث",
        "validity_months" => "مدة الصلاحية (بالأشهر)",
        "vat_percent" => "نسبة ضريبة القيمة المضافة (%)",
        "website_url" => "رابط الموقع",
        "whatsapp" => "WhatsApp",
        "youtube" => "YouTube",
        "youtube_channel" => "قناة YouTube",
        "youtube_channel_id" => "معرِّف قناة YouTube",
        "youtube_id" => "معرِّف فيديو YouTube",
        _ => return None,
    })
}

/// `collections` with every label in Arabic (a list file's one field, `list`, takes its
/// collection's). A name without an Arabic label keeps its English one.
pub fn arabic(collections: Vec<Value>) -> Vec<Value> {
    collections
        .into_iter()
        .map(|mut c| {
            let own = c["name"].as_str().and_then(label);
            relabel(&mut c, own);
            c
        })
        .collect()
}

fn relabel(value: &mut Value, collection: Option<&'static str>) {
    match value {
        Value::Object(map) => {
            let name = map.get("name").and_then(Value::as_str).unwrap_or_default();
            let arabic = if name == "list" {
                collection
            } else {
                label(name)
            };
            if let (Some(arabic), true) = (arabic, map.contains_key("label")) {
                map.insert("label".into(), Value::String(arabic.into()));
            }
            for (_, inner) in map.iter_mut() {
                relabel(inner, collection);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| relabel(v, collection)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every label the editor shows on the Arabic page is Arabic (product names aside): a field
    /// added to the model without its Arabic label fails here.
    #[test]
    fn every_label_of_the_editor_has_its_arabic() {
        fn check(v: &Value, missing: &mut Vec<String>) {
            match v {
                Value::Object(map) => {
                    if let Some(l) = map.get("label").and_then(Value::as_str) {
                        let arabic = l.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c));
                        let product = [
                            "Instagram",
                            "InstaPay",
                            "LinkedIn",
                            "Paymob",
                            "PayTabs",
                            "TikTok",
                            "WhatsApp",
                            "YouTube",
                        ]
                        .contains(&l);
                        if !arabic && !product {
                            missing.push(format!("{} ({l})", map["name"]));
                        }
                    }
                    map.values().for_each(|x| check(x, missing));
                }
                Value::Array(a) => a.iter().for_each(|x| check(x, missing)),
                _ => {}
            }
        }
        let mut missing = Vec::new();
        for c in arabic(crate::editor::collections()) {
            check(&c, &mut missing);
        }
        assert!(missing.is_empty(), "without an Arabic label: {missing:?}");
        let english = crate::editor::collections();
        assert_eq!(
            english[0]["label"], "Blog",
            "the English configuration is unchanged"
        );
    }
}
